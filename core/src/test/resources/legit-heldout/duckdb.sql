-- Held-out legitimate DuckDB (LegitimateHeldOutTest): statements a text-to-SQL model writes over the
-- hostile fixture's allowed data, none of them in hostile-legit/duckdb.sql. One statement per
-- blank-line-separated block; every one returns rows, in a deterministic order.

SELECT date_trunc('quarter', placed) AS quarter, count(*) AS orders, round(sum(amount), 2) AS revenue FROM orders GROUP BY 1 ORDER BY 1

SELECT strftime(born, '%b %Y') AS born_month, name FROM people ORDER BY born

SELECT name, date_diff('year', born, DATE '2025-06-30') AS years FROM people ORDER BY years DESC, name

SELECT name, datediff('day', born, DATE '2025-01-01') AS days_alive FROM people ORDER BY id

SELECT id, placed + INTERVAL 30 DAY AS due, placed - INTERVAL '1 month' AS month_before, date_add(placed, INTERVAL 2 WEEK) AS later FROM orders ORDER BY id

SELECT dayname(placed) AS weekday, count(*) AS n FROM orders GROUP BY ALL ORDER BY weekday

SELECT year(born) AS y, month(born) AS m, quarter(born) AS q, dayofweek(born) AS dow, extract('doy' FROM born) AS doy FROM people ORDER BY id

SELECT id, last_day(placed) AS month_end, date_part('week', placed) AS wk, strptime('2024-01-05', '%Y-%m-%d') AS parsed FROM orders ORDER BY id

SELECT id FROM orders WHERE placed BETWEEN '2024-03-01' AND '2024-06-30' ORDER BY id

SELECT name, age(TIMESTAMP '2025-01-01', born::TIMESTAMP) AS age_interval FROM people ORDER BY id

SELECT name, split_part(name || '.' || dept, '.', 2) AS second_part, string_split(city, 'o')[1] AS before_o FROM people ORDER BY id

SELECT name, regexp_replace(city, '[aeiou]', '', 'g') AS no_vowels, regexp_extract(city, '^[A-Z][a-z]') AS first2 FROM people ORDER BY id

SELECT name FROM people WHERE regexp_matches(name, '^[aeiou]') ORDER BY name

SELECT name FROM people WHERE city ILIKE '%O%' ORDER BY name

SELECT name FROM people WHERE name SIMILAR TO '(a|e|i).*' ORDER BY name

SELECT name FROM people WHERE name GLOB '[bc]*' ORDER BY name

SELECT name, concat_ws(' / ', dept, city, score) AS summary, left(city, 2) AS l, right(city, 2) AS r FROM people ORDER BY name

SELECT upper(name[1]) || name[2:] AS title_name, position('o' IN city) AS o_at, instr(city, 'i') AS i_at, length(city) AS len FROM people ORDER BY 1

SELECT name, printf('%s works in %s (%d)', name, dept, score) AS sentence, format('{} / {}', name, city) AS f FROM people ORDER BY id

SELECT id, round(amount * 1.2, 2) AS gross, ceil(amount) AS up, floor(amount) AS down, amount::DECIMAL(10,1) AS one_dp FROM orders ORDER BY id

SELECT id, id % 3 AS m, amount::INTEGER % 7 AS r, CAST(amount AS DECIMAL(10,2)) / 3 AS third, id // 2 AS half FROM orders ORDER BY id

SELECT dept, round(avg(score), 2) AS avg_score, round(stddev_pop(score), 2) AS sd, median(score) AS med FROM people GROUP BY dept ORDER BY dept

SELECT name, if(score > 50, 'pass', 'fail') AS result, ifnull(city, 'none') AS c, nullif(dept, 'eng') AS not_eng FROM people ORDER BY id

SELECT dept, sum(CASE WHEN score >= 50 THEN 1 ELSE 0 END) AS passing, count(*) FILTER (WHERE score < 50) AS failing FROM people GROUP BY dept ORDER BY dept

SELECT dept, count(*) AS n FROM people GROUP BY dept HAVING sum(CASE WHEN city = 'Oslo' THEN 1 ELSE 0 END) >= 1 ORDER BY dept

SELECT name, coalesce(nullif(score, 0), -1) AS s, greatest(0, score - 50) AS over_fifty, least(score, 50) AS capped FROM people ORDER BY id

SELECT name, score, sum(score) OVER (PARTITION BY dept ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS moving FROM people ORDER BY dept, id

SELECT id, amount, avg(amount) OVER (ORDER BY placed RANGE BETWEEN INTERVAL 60 DAY PRECEDING AND CURRENT ROW) AS avg_60d FROM orders ORDER BY id

SELECT id, amount, lag(amount, 1, 0) OVER w AS prev, lead(amount, 2, -1) OVER w AS next2, first_value(amount) OVER w AS first FROM orders WINDOW w AS (ORDER BY placed) ORDER BY id

SELECT name, ntile(4) OVER (ORDER BY score DESC, id) AS quartile, nth_value(name, 2) OVER (ORDER BY score DESC, id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS runner_up FROM people ORDER BY id

SELECT name, dept, score FROM people QUALIFY rank() OVER (PARTITION BY dept ORDER BY score DESC) <= 2 ORDER BY dept, score DESC

SELECT person_id, id, amount FROM orders QUALIFY row_number() OVER (PARTITION BY person_id ORDER BY amount DESC) = 1 ORDER BY person_id

SELECT status, count(*) FILTER (WHERE placed < DATE '2024-06-01') AS early, avg(amount) FILTER (WHERE amount > 20) AS avg_big FROM orders GROUP BY status ORDER BY status

SELECT dept, city, count(*) AS n FROM people GROUP BY GROUPING SETS ((dept, city), (dept), ()) ORDER BY dept NULLS LAST, city NULLS LAST

SELECT dept, city, count(*) AS n FROM people GROUP BY ROLLUP (dept, city) ORDER BY 1 NULLS LAST, 2 NULLS LAST

SELECT dept, avg(score) AS a FROM people GROUP BY dept HAVING avg(score) > (SELECT avg(score) FROM people) ORDER BY dept

SELECT p.name, (SELECT max(o.amount) FROM orders o WHERE o.person_id = p.id) AS biggest FROM people p ORDER BY p.id

SELECT name FROM people p WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.person_id = p.id) ORDER BY name

SELECT name FROM people WHERE id NOT IN (SELECT person_id FROM orders WHERE person_id IS NOT NULL) ORDER BY name

SELECT name, score FROM people WHERE score > ALL (SELECT score FROM people WHERE dept = 'ops') ORDER BY name

SELECT name FROM people WHERE id = ANY (SELECT person_id FROM orders WHERE status = 'closed') ORDER BY name

WITH totals AS (SELECT person_id, sum(amount) AS total FROM orders GROUP BY person_id), ranked AS (SELECT person_id, total, dense_rank() OVER (ORDER BY total DESC) AS r FROM totals) SELECT p.name, r.total, r.r FROM ranked r JOIN people p ON p.id = r.person_id WHERE r.r <= 3 ORDER BY r.r

WITH RECURSIVE months(m) AS (SELECT DATE '2024-01-01' UNION ALL SELECT CAST(m + INTERVAL 1 MONTH AS DATE) FROM months WHERE m < DATE '2024-12-01') SELECT m.m, count(o.id) AS n FROM months m LEFT JOIN orders o ON date_trunc('month', o.placed) = m.m GROUP BY m.m ORDER BY m.m

WITH RECURSIVE fib(n, a, b) AS (SELECT 1, 0, 1 UNION ALL SELECT n + 1, b, a + b FROM fib WHERE n < 10) SELECT n, a FROM fib ORDER BY n

SELECT kind FROM pets UNION ALL SELECT status FROM orders ORDER BY 1 LIMIT 5 OFFSET 2

SELECT city FROM people INTERSECT SELECT city FROM people WHERE score < 60 ORDER BY city

SELECT dept FROM people EXCEPT SELECT dept FROM people WHERE score > 90 ORDER BY dept

SELECT name FROM people ORDER BY score DESC, id LIMIT 3

SELECT DISTINCT ON (person_id) person_id, id, amount FROM orders ORDER BY person_id, amount DESC

SELECT name, city FROM people WHERE city IS DISTINCT FROM 'Oslo' ORDER BY id

SELECT name FROM people WHERE dept IN ('eng', 'sales') AND born BETWEEN DATE '1980-01-01' AND DATE '1986-12-31' ORDER BY born

SELECT p.name, o.id FROM people p JOIN orders o ON o.person_id = p.id JOIN people q USING (dept) WHERE q.name = 'ann' ORDER BY o.id

SELECT a.name AS first_name, b.name AS other_name FROM people a JOIN people b ON a.dept = b.dept AND a.id < b.id WHERE a.score > b.score ORDER BY 1, 2

SELECT d.dept, k.kind FROM (SELECT DISTINCT dept FROM people) d CROSS JOIN (SELECT DISTINCT kind FROM pets) k ORDER BY 1, 2

SELECT p.name FROM people p LEFT JOIN orders o ON o.person_id = p.id WHERE o.id IS NULL ORDER BY p.name

SELECT p.name, recent.placed FROM people p, LATERAL (SELECT o.placed FROM orders o WHERE o.person_id = p.id ORDER BY o.placed DESC LIMIT 1) recent ORDER BY p.name

SELECT dept, string_agg(name, ', ' ORDER BY name) AS names, list(DISTINCT city ORDER BY city) AS cities FROM people GROUP BY dept ORDER BY dept

SELECT dept, listagg(name, ';' ORDER BY name) AS names FROM people GROUP BY dept ORDER BY dept

SELECT json_object('name', name, 'score', score) AS j FROM people ORDER BY id

SELECT json_extract(json_object('a', name, 'b', score), '$.b') AS b, json_object('a', name) ->> '$.a' AS a FROM people ORDER BY id

SELECT name, score / NULLIF(sum(score) OVER (), 0) AS share FROM people ORDER BY id

SELECT "name", "Dept Count" FROM (SELECT dept AS "name", count(*) AS "Dept Count" FROM people GROUP BY dept) AS "Summary" ORDER BY "Dept Count" DESC, "name"

SELECT kind, count(*) AS n FROM pets WHERE age BETWEEN 2 AND 6 GROUP BY kind HAVING count(*) > 0 ORDER BY n DESC, kind

SELECT name, CASE WHEN month(born) IN (12, 1, 2) THEN 'winter' WHEN month(born) IN (3, 4, 5) THEN 'spring' ELSE 'other' END AS season FROM people ORDER BY id

SELECT o.status, p.city, count(*) AS n FROM orders o JOIN people p ON p.id = o.person_id WHERE o.amount >= 20 GROUP BY ALL ORDER BY ALL

SELECT arg_max(name, score) AS best, arg_min(name, score) AS worst, max_by(city, score) AS best_city FROM people

SELECT dept, count_if(score > 50) AS high, bool_and(score > 5) AS all_over_5 FROM people GROUP BY dept ORDER BY dept

SELECT name, score, score - avg(score) OVER (PARTITION BY dept) AS diff, cume_dist() OVER (ORDER BY score) AS cd FROM people ORDER BY id

SELECT dept, percentile_cont(0.5) WITHIN GROUP (ORDER BY score) AS median_score, percentile_disc(0.5) WITHIN GROUP (ORDER BY score) AS mid FROM people GROUP BY dept ORDER BY dept

SELECT r, r * 2 AS twice FROM (SELECT unnest(range(5)) AS r) AS s ORDER BY r

SELECT name, range(3) AS slots, range(1, 7, 2) AS odd FROM people ORDER BY id

SELECT q.info.city AS city, q.info.n AS n FROM (SELECT {'city': city, 'n': id} AS info FROM people) AS q ORDER BY n
