-- Held-out legitimate PostgreSQL (LegitimateHeldOutTest): statements a text-to-SQL model writes over the
-- hostile fixture's allowed data, none of them in hostile-legit/postgresql.sql. One statement per
-- blank-line-separated block; every one returns rows, in a deterministic order.

SELECT date_trunc('quarter', placed)::date AS quarter, count(*) AS orders, round(sum(amount), 2) AS revenue FROM orders GROUP BY 1 ORDER BY 1

SELECT to_char(born, 'Mon YYYY') AS born_month, name FROM people ORDER BY born

SELECT name, EXTRACT(EPOCH FROM (TIMESTAMP '2025-01-01 00:00:00' - born::timestamp)) / 86400 AS days_alive FROM people ORDER BY id

SELECT name, date_part('year', age(DATE '2025-06-30', born))::int AS years FROM people ORDER BY years DESC, name

SELECT id, placed, placed - INTERVAL '1 month' AS month_before, (placed + 30)::date AS plus_30 FROM orders ORDER BY id

SELECT to_char(placed, 'Day') AS weekday, count(*) AS n FROM orders GROUP BY 1 ORDER BY 1

SELECT id FROM orders WHERE placed >= DATE '2024-03-01' AND placed < DATE '2024-03-01' + INTERVAL '3 months' ORDER BY id

SELECT name, split_part(name || '.' || dept, '.', 2) AS second_part FROM people ORDER BY id

SELECT name, regexp_replace(city, '^(.)(.*)$', '\2\1') AS rotated FROM people ORDER BY id

SELECT name, concat_ws(' / ', dept, city, score::text) AS summary FROM people ORDER BY name

SELECT upper(left(name, 1)) || substr(name, 2) AS title_name FROM people ORDER BY 1

SELECT name, position('o' IN city) AS o_at, char_length(city) AS len FROM people WHERE city ILIKE '%o%' ORDER BY name

SELECT name FROM people WHERE name SIMILAR TO '(a|e|i)%' ORDER BY name

SELECT name FROM people WHERE city ~* '^(oslo|lima)$' ORDER BY name

SELECT name, format('%s works in %s', name, dept) AS sentence FROM people ORDER BY id

SELECT id, round(amount * 1.2, 2) AS gross, ceil(amount) AS up, floor(amount) AS down, amount::numeric(10,1) AS one_dp FROM orders ORDER BY id

SELECT id, amount::int % 7 AS r, mod(id, 3) AS m, CAST(amount AS DECIMAL(10,2)) / 3 AS third FROM orders ORDER BY id

SELECT dept, round(avg(score)::numeric, 2) AS avg_score, round(stddev_pop(score)::numeric, 2) AS sd FROM people GROUP BY dept ORDER BY dept

SELECT name, score, CASE WHEN score > 50 THEN 'pass' ELSE 'fail' END AS result FROM people ORDER BY CASE WHEN dept = 'eng' THEN 0 ELSE 1 END, name

SELECT dept, sum(CASE WHEN score >= 50 THEN 1 ELSE 0 END) AS passing, sum(CASE WHEN score < 50 THEN 1 ELSE 0 END) AS failing FROM people GROUP BY dept ORDER BY dept

SELECT dept, count(*) AS n FROM people GROUP BY dept HAVING sum(CASE WHEN city = 'Oslo' THEN 1 ELSE 0 END) >= 1 ORDER BY dept

SELECT name, coalesce(nullif(score, 0), -1) AS s, greatest(0, score - 50) AS over_fifty FROM people ORDER BY id

SELECT name, score, sum(score) OVER (PARTITION BY dept ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS moving FROM people ORDER BY dept, id

SELECT id, amount, avg(amount) OVER (ORDER BY placed RANGE BETWEEN INTERVAL '60 days' PRECEDING AND CURRENT ROW) AS avg_60d FROM orders ORDER BY id

SELECT id, amount, lag(amount, 1, 0) OVER w AS prev, lead(amount, 2, -1) OVER w AS next2, first_value(amount) OVER w AS first, last_value(amount) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS last FROM orders WINDOW w AS (ORDER BY placed) ORDER BY id

SELECT name, ntile(4) OVER (ORDER BY score DESC, id) AS quartile, nth_value(name, 2) OVER (ORDER BY score DESC, id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS runner_up FROM people ORDER BY id

SELECT * FROM (SELECT name, dept, score, rank() OVER (PARTITION BY dept ORDER BY score DESC) AS r FROM people) ranked WHERE r <= 2 ORDER BY dept, r

SELECT status, count(*) FILTER (WHERE placed < DATE '2024-06-01') AS early, avg(amount) FILTER (WHERE amount > 20) AS avg_big FROM orders GROUP BY status ORDER BY status

SELECT dept, city, count(*) AS n, grouping(dept, city) AS g FROM people GROUP BY GROUPING SETS ((dept, city), (dept), ()) ORDER BY dept NULLS LAST, city NULLS LAST

SELECT dept, city, count(*) FROM people GROUP BY CUBE (dept, city) ORDER BY 1, 2

SELECT dept, avg(score) AS a FROM people GROUP BY dept HAVING avg(score) > (SELECT avg(score) FROM people) ORDER BY dept

SELECT p.name, (SELECT max(o.amount) FROM orders o WHERE o.person_id = p.id) AS biggest FROM people p ORDER BY p.id

SELECT name FROM people p WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.person_id = p.id) ORDER BY name

SELECT name FROM people WHERE id NOT IN (SELECT person_id FROM orders WHERE person_id IS NOT NULL) ORDER BY name

SELECT name, score FROM people WHERE score > ALL (SELECT score FROM people WHERE dept = 'ops') ORDER BY name

SELECT name FROM people WHERE id = ANY (SELECT person_id FROM orders WHERE status = 'closed') ORDER BY name

SELECT name FROM people WHERE id = ANY (ARRAY[1, 3, 5]) ORDER BY id

WITH totals AS (SELECT person_id, sum(amount) AS total FROM orders GROUP BY person_id), ranked AS (SELECT person_id, total, dense_rank() OVER (ORDER BY total DESC) AS r FROM totals) SELECT p.name, r.total, r.r FROM ranked r JOIN people p ON p.id = r.person_id WHERE r.r <= 3 ORDER BY r.r

WITH RECURSIVE months(m) AS (SELECT DATE '2024-01-01' UNION ALL SELECT (m + INTERVAL '1 month')::date FROM months WHERE m < DATE '2024-12-01') SELECT m.m, count(o.id) AS n FROM months m LEFT JOIN orders o ON date_trunc('month', o.placed) = m.m GROUP BY m.m ORDER BY m.m

WITH RECURSIVE fib(n, a, b) AS (SELECT 1, 0, 1 UNION ALL SELECT n + 1, b, a + b FROM fib WHERE n < 10) SELECT n, a FROM fib ORDER BY n

SELECT kind FROM pets UNION ALL SELECT status FROM orders ORDER BY 1 LIMIT 5 OFFSET 2

(SELECT name FROM people WHERE dept = 'eng' ORDER BY score DESC LIMIT 2) UNION (SELECT name FROM people WHERE dept = 'ops' ORDER BY score DESC LIMIT 2) ORDER BY name

SELECT city FROM people INTERSECT ALL SELECT city FROM people WHERE score < 60 ORDER BY city

SELECT name FROM people ORDER BY score DESC, id FETCH FIRST 3 ROWS ONLY

SELECT name FROM people ORDER BY id OFFSET 4 ROWS FETCH NEXT 2 ROWS ONLY

SELECT DISTINCT ON (o.person_id) o.person_id, o.id, o.amount FROM orders o ORDER BY o.person_id, o.amount DESC

SELECT name, city FROM people WHERE city IS DISTINCT FROM 'Oslo' ORDER BY id

SELECT name FROM people WHERE dept IN ('eng', 'sales') AND born BETWEEN '1980-01-01' AND '1986-12-31' ORDER BY born

SELECT p.name, o.id FROM people p JOIN orders o ON o.person_id = p.id JOIN people q USING (dept) WHERE q.name = 'ann' ORDER BY o.id

SELECT a.name AS first, b.name AS second FROM people a JOIN people b ON a.dept = b.dept AND a.id < b.id WHERE a.score > b.score ORDER BY 1, 2

SELECT d.dept, k.kind FROM (SELECT DISTINCT dept FROM people) d CROSS JOIN (SELECT DISTINCT kind FROM pets) k ORDER BY 1, 2

SELECT p.name FROM people p LEFT JOIN orders o ON o.person_id = p.id WHERE o.id IS NULL ORDER BY p.name

SELECT p.name, recent.placed FROM people p JOIN LATERAL (SELECT o.placed FROM orders o WHERE o.person_id = p.id ORDER BY o.placed DESC LIMIT 1) recent ON true ORDER BY p.name

SELECT json_agg(json_build_object('kind', kind, 'age', age) ORDER BY id) AS pets_json FROM pets

SELECT jsonb_build_object('dept', dept, 'n', count(*)) ->> 'n' AS n_text FROM people GROUP BY dept ORDER BY dept

SELECT (json_build_object('a', name, 'b', score) ->> 'b')::int AS b FROM people ORDER BY id

SELECT dept, string_agg(DISTINCT city, ', ' ORDER BY city) AS cities, array_length(array_agg(id), 1) AS n FROM people GROUP BY dept ORDER BY dept

SELECT name, score, score::float / NULLIF(sum(score) OVER (), 0) AS share FROM people ORDER BY id

SELECT o.status, p.city, count(*) AS n FROM orders o NATURAL JOIN (SELECT id AS person_id, city FROM people) p GROUP BY o.status, p.city ORDER BY 1, 2

SELECT generate_series(1, 3) AS n

SELECT extract(isodow FROM placed) AS dow, extract(week FROM placed) AS wk, extract(doy FROM placed) AS doy FROM orders ORDER BY id

SELECT name, born + make_interval(years => 40) AS forty FROM people ORDER BY id

SELECT "name", "Dept Count" FROM (SELECT dept AS "name", count(*) AS "Dept Count" FROM people GROUP BY dept) AS "Summary" ORDER BY "Dept Count" DESC, "name"

SELECT kind, count(*) AS n FROM pets WHERE age BETWEEN 2 AND 6 GROUP BY kind HAVING count(*) > 0 ORDER BY n DESC, kind

SELECT name, dept FROM people WHERE jsonb_build_object('dept', dept, 'skills', jsonb_build_array('sql', city)) @> '{"skills": ["sql"]}' ORDER BY id

SELECT name FROM people WHERE ARRAY[dept, city]::text[] @> ARRAY['Oslo'] OR '{"a": 1}'::jsonb <@ jsonb_build_object('a', 1, 'b', id) ORDER BY id

SELECT name /* the display name */, dept FROM people -- every department
WHERE score > 10 ORDER BY id
