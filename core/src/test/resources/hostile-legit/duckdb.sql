-- Legitimate DuckDB SQL a model writes over the hostile fixture's allowed data (people without ssn, salary
-- and ssn_key, pets and orders through their row filters): casts with ::, QUALIFY, * EXCLUDE / REPLACE, list
-- and struct values, USING SAMPLE, lambdas, GROUP BY ALL, ORDER BY ALL, FILTER, date and string functions.
-- No SELECT *: the fixture's policy does not allow it (DuckDbGuardTest covers * EXCLUDE / REPLACE under a
-- policy that does). Lambdas are written in DuckDB's new syntax (lambda x: …); the arrow is deprecated and
-- refused by this DuckDB.
-- One statement per blank-line-separated block; every one returns rows. LegitimateDialectSqlTest runs each
-- through the full default path: none may be refused.

SELECT name, dept FROM people ORDER BY name

SELECT dept, count(*) AS n FROM people GROUP BY dept ORDER BY n DESC

SELECT dept AS d, count(*) AS n FROM people GROUP BY d ORDER BY d

SELECT name, score::DOUBLE / 10 AS tenth FROM people

SELECT name, born::VARCHAR AS born_text FROM people

SELECT amount::INTEGER AS whole, status FROM orders

SELECT name FROM people WHERE born > '1980-01-01'::DATE

SELECT CAST(score AS DOUBLE) AS s, TRY_CAST(city AS INTEGER) AS c FROM people

SELECT name, dept, score FROM people QUALIFY row_number() OVER (PARTITION BY dept ORDER BY score DESC) = 1

SELECT name, score FROM people QUALIFY rank() OVER (ORDER BY score DESC) <= 3

SELECT dept, sum(score) AS total FROM people GROUP BY ALL

SELECT dept, city, count(*) AS n FROM people GROUP BY ALL ORDER BY ALL

SELECT name, dept FROM people ORDER BY ALL

SELECT name, score, rank() OVER (ORDER BY score DESC) AS r FROM people

SELECT name, dept, row_number() OVER (PARTITION BY dept ORDER BY born) AS rn FROM people

SELECT name, score, lag(score) OVER (ORDER BY id) AS prev, lead(score, 1, 0) OVER (ORDER BY id) AS next FROM people

SELECT name, sum(score) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS running FROM people

SELECT name, ntile(3) OVER (ORDER BY score) AS bucket, percent_rank() OVER (ORDER BY score) AS pr FROM people

SELECT DISTINCT dept, first_value(name) OVER (PARTITION BY dept ORDER BY score DESC) AS best FROM people

SELECT count(*) FILTER (WHERE score > 50) AS high, count(*) FILTER (WHERE score <= 50) AS low FROM people

SELECT dept, sum(score) FILTER (WHERE city = 'Oslo') AS oslo_score, count(*) AS n FROM people GROUP BY dept

SELECT status, count(*) FILTER (WHERE amount > 30) AS big_orders FROM orders GROUP BY status

WITH d AS (SELECT dept, count(*) AS n FROM people GROUP BY dept) SELECT dept, n FROM d ORDER BY n DESC

WITH d(dept_name, people_count) AS (SELECT dept, count(*) FROM people GROUP BY dept) SELECT dept_name, people_count FROM d

WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT n FROM r

SELECT dept, string_agg(name, ', ') AS names FROM people GROUP BY dept

SELECT dept, string_agg(name, ', ' ORDER BY name) AS names FROM people GROUP BY dept

SELECT dept, list(name) AS names FROM people GROUP BY dept

SELECT dept, array_agg(score ORDER BY score) AS scores FROM people GROUP BY dept

SELECT [1, 2, 3] AS l, name FROM people

SELECT name, [score, id] AS pair FROM people

SELECT list_value(score, id) AS l FROM people

SELECT {'name': name, 'dept': dept} AS s FROM people

SELECT struct_pack(n := name, d := dept) AS s FROM people

SELECT list_transform([1, 2, 3], lambda x: x + 1) AS l FROM people LIMIT 1

SELECT list_filter([1, 2, 3, 4], lambda x: x % 2 = 0) AS evens, name FROM people

SELECT name, list_transform([score, id], lambda x: x * 2) AS doubled FROM people

SELECT name FROM people USING SAMPLE 100%

SELECT count(*) AS n FROM people USING SAMPLE 10 ROWS

SELECT date_trunc('month', placed) AS m, sum(amount) AS total FROM orders GROUP BY 1 ORDER BY 1

SELECT strftime(born, '%Y-%m') AS ym, name FROM people

SELECT year(born) AS y, month(born) AS m, count(*) AS n FROM people GROUP BY ALL

SELECT date_diff('day', min(placed), max(placed)) AS span FROM orders

SELECT name, born + INTERVAL 3 DAY AS later FROM people

SELECT name, extract(year FROM born) AS y FROM people

SELECT date_part('dow', placed) AS dow, count(*) AS n FROM orders GROUP BY 1

SELECT name, age(DATE '2025-01-01', born) AS a FROM people

SELECT name FROM people WHERE regexp_matches(name, '^[a-e]')

SELECT regexp_replace(city, 'o', '0') AS c FROM people

SELECT regexp_extract(city, '^(.)', 1) AS initial, count(*) AS n FROM people GROUP BY 1

SELECT name, upper(city) AS c, length(name) AS l, concat(name, '@', city) AS tag FROM people

SELECT name FROM people WHERE city ILIKE 'o%'

SELECT name, city || '/' || dept AS place FROM people

SELECT split_part(city, 'l', 1) AS head, starts_with(city, 'O') AS o FROM people

SELECT arg_max(name, score) AS best, max(score) AS top FROM people

SELECT dept, arg_min(name, born) AS eldest FROM people GROUP BY dept

SELECT median(score) AS med, quantile_cont(score, 0.9) AS p90 FROM people

SELECT mode(kind) AS common_kind FROM pets

SELECT p.name, o.amount FROM people p JOIN orders o ON o.person_id = p.id WHERE o.status = 'open'

SELECT p.name, count(o.id) AS n FROM people p LEFT JOIN orders o ON o.person_id = p.id GROUP BY p.name

SELECT p.name, o.amount FROM people p JOIN orders o USING (id)

SELECT name FROM people WHERE id IN (SELECT person_id FROM orders WHERE amount > 30)

SELECT name FROM people p WHERE EXISTS (SELECT 1 FROM orders o WHERE o.person_id = p.id)

SELECT kind, count(*) AS n FROM pets GROUP BY kind HAVING count(*) > 1

SELECT kind, avg(age) AS a FROM pets GROUP BY kind ORDER BY a DESC

SELECT status, sum(amount) AS total, round(avg(amount), 2) AS mean FROM orders GROUP BY status

SELECT name FROM people UNION SELECT kind FROM pets

SELECT dept FROM people EXCEPT SELECT 'ops'

SELECT CASE WHEN score > 50 THEN 'high' ELSE 'low' END AS band, count(*) AS n FROM people GROUP BY 1

SELECT coalesce(city, 'unknown') AS c, nullif(dept, 'eng') AS d FROM people

SELECT greatest(score, 10) AS g, least(score, 90) AS l FROM people

SELECT name, score FROM people ORDER BY score DESC NULLS LAST LIMIT 5

SELECT name, score FROM people LIMIT 3 OFFSET 2

SELECT count(DISTINCT city) AS cities, approx_count_distinct(dept) AS depts FROM people

SELECT bool_or(score > 90) AS any_high, bool_and(score >= 0) AS all_pos FROM people

SELECT unnest([1, 2, 3]) AS v

SELECT range AS n FROM range(3)

SELECT name, score // 10 AS tens FROM people

SELECT printf('%s in %s', name, city) AS line FROM people

SELECT format('{} in {}', name, city) AS line FROM people

SELECT list_sort([3, 1, 2]) AS l, list_contains([1, 2], 2) AS has_two FROM people LIMIT 2

SELECT name, len([score, id]) AS n, [score, id][1] AS first_item FROM people

SELECT dept, list_distinct(list(city)) AS cities FROM people GROUP BY dept

SELECT name, contains(city, 'o') AS has_o, lower(name) AS lname FROM people

SELECT status, max(placed) AS last_placed, min(amount) AS smallest FROM orders GROUP BY ALL

SELECT dept, list_aggregate(list(score), 'sum') AS s FROM people GROUP BY dept

SELECT name, string_split(city, 'l') AS parts FROM people

SELECT name, unnest(string_split(city, 'l')) AS part FROM people

SELECT name, epoch(born) AS e, dayname(born) AS d, monthname(born) AS m FROM people

SELECT last_day(placed) AS ld, date_add(placed, INTERVAL 1 MONTH) AS next FROM orders

SELECT make_date(2024, 1, 1) AS d, name FROM people

SELECT name FROM people WHERE born BETWEEN DATE '1970-01-01' AND DATE '2000-12-31'

SELECT count(*) AS recent FROM orders WHERE placed > current_date - INTERVAL 10000 DAY

SELECT name, score, score - avg(score) OVER () AS diff FROM people

SELECT dept, count(*) * 100.0 / sum(count(*)) OVER () AS pct FROM people GROUP BY dept

SELECT name FROM people WHERE dept IN ('ops', 'dev', 'eng') AND score IS NOT NULL

SELECT name, CASE dept WHEN 'ops' THEN 1 ELSE 0 END AS is_ops FROM people

SELECT round(score / 3.0, 1) AS r, floor(score / 10) AS f, ceil(score / 10) AS c FROM people

SELECT name, md5(name) AS h FROM people

SELECT list_position([1, 2, 3], 2) AS pos, name FROM people

SELECT name, score::VARCHAR || '%' AS pct FROM people

SELECT dept, histogram(city) AS h FROM people GROUP BY dept

SELECT name, trim(city) AS c, lpad(name, 10, '*') AS padded, left(name, 2) AS l, right(name, 2) AS r FROM people

SELECT name, strptime('2024-01-02', '%Y-%m-%d') AS t FROM people

SELECT name FROM people WHERE city IS DISTINCT FROM 'Oslo'

SELECT count(*) AS n FROM people p, pets q WHERE p.name = q.owner OR p.id = q.id

SELECT p.name, q.kind FROM people p CROSS JOIN pets q ORDER BY 1, 2 LIMIT 5

SELECT dept, max(score) - min(score) AS spread FROM people GROUP BY dept HAVING spread >= 0

SELECT name, score, CASE WHEN score >= 80 THEN 'A' WHEN score >= 60 THEN 'B' ELSE 'C' END AS grade FROM people ORDER BY grade, name

SELECT list_slice([1, 2, 3, 4], 2, 3) AS l, name FROM people

SELECT name, [score, id][1:1] AS s FROM people

SELECT struct_extract({'a': name}, 'a') AS n FROM people

SELECT name, score FROM people WHERE score = (SELECT max(score) FROM people)

SELECT DISTINCT ON (dept) dept, name FROM people ORDER BY dept, score DESC

SELECT name, to_json({'n': name}) AS j FROM people

SELECT json_extract_string('{"a": 1}', '$.a') AS v, name FROM people

SELECT name, list_transform(string_split(city, ''), lambda c: upper(c)) AS letters FROM people

SELECT name FROM people WHERE list_contains(['ops', 'dev', 'eng'], dept)

SELECT name, rank() OVER w AS r FROM people WINDOW w AS (ORDER BY score)

SELECT min(born) AS first_born, max(born) AS last_born FROM people

SELECT name, score % 7 AS m, score // 7 AS q, pow(2, 3) AS p FROM people

SELECT dept, count(*) AS n FROM people GROUP BY ROLLUP (dept)

SELECT dept, city, count(*) AS n FROM people GROUP BY GROUPING SETS ((dept), (city))

SELECT name, list_reduce([score, id, 1], lambda a, b: a + b) AS total FROM people

SELECT name, list_filter([score, id], lambda v, i: i > 1) AS rest FROM people

SELECT r.range AS n, p.name FROM range(1, 3) r JOIN people p ON p.id = r.range

SELECT generate_series AS y FROM generate_series(2020, 2024)

SELECT y.year, count(p.id) AS n FROM generate_series(1950, 2010, 10) AS y(year) LEFT JOIN people p ON year(p.born) >= y.year AND year(p.born) < y.year + 10 GROUP BY y.year ORDER BY y.year

SELECT name, {'dept': dept, 'city': city}.dept AS d FROM people

SELECT dept, count(*) AS n FROM people GROUP BY dept USING SAMPLE 100% ORDER BY dept
