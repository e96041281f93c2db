-- Legitimate PostgreSQL a model writes over the hostile fixture's allowed data (people without ssn and
-- salary, pets and orders through their row filters). One statement per blank-line-separated block; every
-- one returns rows. LegitimateDialectSqlTest runs each through the full default path: none may be refused.

SELECT name, dept FROM people ORDER BY name

SELECT dept, count(*) AS n FROM people GROUP BY dept ORDER BY n DESC

SELECT dept AS d, count(*) AS n FROM people GROUP BY d ORDER BY d

SELECT name, score, rank() OVER (ORDER BY score DESC) AS r FROM people

SELECT name, dept, row_number() OVER (PARTITION BY dept ORDER BY born) AS rn FROM people

SELECT name, score, lag(score) OVER (ORDER BY id) AS prev, lead(score, 1, 0) OVER (ORDER BY id) AS next FROM people

SELECT name, dept, avg(score) OVER (PARTITION BY dept) AS dept_avg FROM people

SELECT name, sum(score) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS running FROM people

SELECT name, ntile(3) OVER (ORDER BY score) AS bucket, percent_rank() OVER (ORDER BY score) AS pr, cume_dist() OVER (ORDER BY score) AS cd FROM people

SELECT DISTINCT dept, first_value(name) OVER (PARTITION BY dept ORDER BY score DESC) AS best FROM people

SELECT name, dense_rank() OVER w AS dr FROM people WINDOW w AS (ORDER BY dept)

SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY score) AS median FROM people

SELECT dept, percentile_disc(0.9) WITHIN GROUP (ORDER BY score) AS p90 FROM people GROUP BY dept

SELECT mode() WITHIN GROUP (ORDER BY kind) AS common_kind FROM pets

SELECT count(*) FILTER (WHERE score > 50) AS high, count(*) FILTER (WHERE score <= 50) AS low FROM people

SELECT dept, sum(score) FILTER (WHERE city = 'Oslo') AS oslo_score, count(*) AS n FROM people GROUP BY dept

SELECT status, count(*) FILTER (WHERE amount > 30) AS big_orders FROM orders GROUP BY status

WITH d(dept_name, people_count) AS (SELECT dept, count(*) FROM people GROUP BY dept) SELECT dept_name, people_count FROM d ORDER BY people_count DESC

WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5) SELECT i FROM n

WITH RECURSIVE chain(id, depth) AS (SELECT id, 1 FROM people WHERE id = 1 UNION ALL SELECT p.id, c.depth + 1 FROM people p JOIN chain c ON p.id = c.id + 1 WHERE c.depth < 4) SELECT id, depth FROM chain

WITH busy AS (SELECT person_id, count(*) AS n FROM orders GROUP BY person_id) SELECT p.name, b.n FROM people p JOIN busy b ON b.person_id = p.id

SELECT p.name, l.total FROM people p CROSS JOIN LATERAL (SELECT sum(o.amount) AS total FROM orders o WHERE o.person_id = p.id) l ORDER BY p.name

SELECT p.name, o.amount FROM people p LEFT JOIN LATERAL (SELECT amount FROM orders o WHERE o.person_id = p.id ORDER BY amount DESC LIMIT 1) o ON true

SELECT p.name, (SELECT count(*) FROM orders o WHERE o.person_id = p.id) AS orders_count FROM people p

SELECT name FROM people p WHERE EXISTS (SELECT 1 FROM orders o WHERE o.person_id = p.id)

SELECT name FROM people p WHERE score > (SELECT avg(score) FROM people q WHERE q.dept = p.dept)

SELECT name FROM people WHERE id IN (SELECT person_id FROM orders WHERE status = 'open')

SELECT kind AS label FROM pets UNION SELECT status FROM orders ORDER BY 1

SELECT dept FROM people INTERSECT SELECT dept FROM people WHERE score > 20

SELECT city FROM people EXCEPT SELECT city FROM people WHERE score > 90

SELECT name, CASE WHEN score >= 70 THEN 'high' WHEN score >= 40 THEN 'mid' ELSE 'low' END AS band FROM people

SELECT name, CASE dept WHEN 'eng' THEN 1 ELSE 0 END AS is_eng FROM people

SELECT coalesce(nullif(city, 'Oslo'), 'home') AS place, count(*) AS n FROM people GROUP BY 1

SELECT upper(name) AS u, lower(dept) AS l, initcap(city) AS c, length(name) AS len FROM people

SELECT substring(name from 1 for 2) AS s, left(city, 2) AS l, right(city, 2) AS r, reverse(name) AS rev FROM people

SELECT concat(name, '@', dept) AS handle, concat_ws('-', city, dept) AS place FROM people

SELECT replace(city, 'o', '0') AS c, trim('  x  ') AS t, lpad(name, 6, '.') AS lp, rpad(name, 6, '.') AS rp FROM people

SELECT split_part('a,b,c', ',', 2) AS part, strpos(name, 'a') AS sp, position('a' in name) AS pos FROM people

SELECT dept, string_agg(name, ', ' ORDER BY name) AS names FROM people GROUP BY dept

SELECT array_agg(kind ORDER BY kind) AS kinds FROM pets

SELECT date_trunc('month', placed) AS m, sum(amount) AS total FROM orders GROUP BY 1 ORDER BY 1

SELECT extract(year FROM born) AS y, count(*) AS n FROM people GROUP BY y ORDER BY y

SELECT to_char(placed, 'YYYY-MM') AS month, count(*) AS n FROM orders GROUP BY month

SELECT name, age(DATE '2025-01-01', born) AS age FROM people

SELECT id, placed + INTERVAL '7 days' AS due FROM orders

SELECT date_part('dow', placed) AS dow, make_date(2024, 1, 1) AS jan FROM orders

SELECT id, DATE '2025-01-01' - placed AS days_before FROM orders

SELECT round(avg(amount), 2) AS mean, max(amount) AS hi, min(amount) AS lo, sum(amount) AS total FROM orders

SELECT status, count(*) AS n, sum(amount) AS total FROM orders GROUP BY status HAVING count(*) >= 1 ORDER BY total DESC

SELECT o.id, p.name, o.amount FROM orders o JOIN people p ON p.id = o.person_id WHERE o.amount > 20

SELECT DISTINCT ON (dept) dept, name, score FROM people ORDER BY dept, score DESC

SELECT dept, city, count(*) AS n FROM people GROUP BY ROLLUP (dept, city)

SELECT dept, count(*) AS n FROM people GROUP BY GROUPING SETS ((dept), ())

SELECT greatest(score, 50) AS g, least(score, 50) AS l, abs(score - 50) AS a, mod(score, 7) AS m FROM people

SELECT name FROM people WHERE name LIKE 'a%' OR name ILIKE 'B%'

SELECT name FROM people WHERE born BETWEEN DATE '1980-01-01' AND DATE '1985-12-31'

SELECT kind, count(*) AS n FROM pets GROUP BY kind ORDER BY count(*) DESC, kind

SELECT owner, count(*) AS n FROM pets GROUP BY owner

SELECT tenant, count(*) AS n FROM orders GROUP BY tenant

SELECT name, score::text || '%' AS pct FROM people

SELECT id, CAST(amount AS integer) AS whole FROM orders

SELECT bool_and(score > 0) AS all_positive, bool_or(score > 90) AS any_high FROM people

SELECT json_build_object('name', name, 'dept', dept) AS j FROM people

SELECT name FROM people ORDER BY score DESC NULLS LAST LIMIT 5

SELECT name FROM people ORDER BY id OFFSET 2 LIMIT 3

SELECT p.name, count(o.id) AS n FROM people p LEFT JOIN orders o ON o.person_id = p.id GROUP BY p.name ORDER BY 2 DESC

SELECT k.kind, avg(k.age) AS mean_age FROM pets k GROUP BY k.kind HAVING avg(k.age) > 1

SELECT repeat('-', 10) AS line, md5(name) AS h FROM people

SELECT regexp_replace(name, '[aeiou]', '*', 'g') AS masked FROM people

SELECT width_bucket(score, 0, 100, 4) AS quartile, count(*) AS n FROM people GROUP BY 1

SELECT x.d, x.n FROM (SELECT dept AS d, count(*) AS n FROM people GROUP BY dept) x WHERE x.n > 1

SELECT o.status, p.dept, sum(o.amount) AS total FROM orders o JOIN people p ON p.id = o.person_id GROUP BY o.status, p.dept
