-- Held-out legitimate SQLite (LegitimateHeldOutTest): statements a text-to-SQL model writes over the
-- hostile fixture's allowed data, none of them in hostile-legit/sqlite.sql. One statement per
-- blank-line-separated block; every one returns rows, in a deterministic order.

SELECT strftime('%Y-%m', placed) AS month, COUNT(*) AS orders, ROUND(SUM(amount), 2) AS revenue FROM orders GROUP BY month ORDER BY month

SELECT name, strftime('%d/%m/%Y', born) AS born_fr FROM people ORDER BY born

SELECT name, CAST((julianday('2025-06-30') - julianday(born)) / 365.25 AS INTEGER) AS age FROM people ORDER BY age DESC, name

SELECT id, date(placed, '+30 days') AS due, date(placed, '-1 month') AS month_before, date(placed, 'start of month') AS month_start FROM orders ORDER BY id

SELECT id, julianday('2025-01-01') - julianday(placed) AS days_left FROM orders ORDER BY id

SELECT CASE CAST(strftime('%w', placed) AS INTEGER) WHEN 0 THEN 'Sun' WHEN 6 THEN 'Sat' ELSE 'weekday' END AS day_type, COUNT(*) AS n FROM orders GROUP BY day_type ORDER BY day_type

SELECT CAST(strftime('%Y', born) AS INTEGER) AS y, strftime('%m', born) AS m, (CAST(strftime('%m', born) AS INTEGER) + 2) / 3 AS q FROM people ORDER BY id

SELECT id FROM orders WHERE placed BETWEEN '2024-03-01' AND '2024-06-30' ORDER BY id

SELECT id FROM orders WHERE placed >= date('2024-01-01', '+2 months') ORDER BY id

SELECT name, datetime(born, '+12 hours') AS noon, unixepoch(born) AS epoch FROM people ORDER BY id

SELECT name, substr(city, 1, instr(city || 'o', 'o') - 1) AS before_o FROM people ORDER BY id

SELECT name, instr(city, 'i') AS i_at, length(city) AS len, upper(substr(name, 1, 1)) || substr(name, 2) AS title_name FROM people ORDER BY id

SELECT name, printf('%s works in %s (%d)', name, dept, score) AS sentence FROM people ORDER BY id

SELECT name, printf('%.2f', score / 3.0) AS third, printf('%05d', score) AS padded FROM people ORDER BY id

SELECT name, format('%-6s|', name) AS fixed FROM people ORDER BY id

SELECT name, concat_ws(' / ', dept, city, score) AS summary FROM people ORDER BY name

SELECT name, replace(replace(city, 'a', ''), 'o', '') AS stripped, trim(' ' || name || ' ') AS t, ltrim(city, 'OL') AS lt FROM people ORDER BY id

SELECT name FROM people WHERE name GLOB '[aeiou]*' ORDER BY name

SELECT name FROM people WHERE city LIKE '%O%' ORDER BY name

SELECT name, score FROM people WHERE name NOT LIKE '_a%' AND score IS NOT NULL ORDER BY name

SELECT id, round(amount * 1.2, 2) AS gross, CAST(amount AS INTEGER) AS whole, ceil(amount) AS up, floor(amount) AS down FROM orders ORDER BY id

SELECT id, id % 3 AS m, CAST(amount AS INTEGER) % 7 AS r, mod(id, 4) AS m4, amount / 3 AS third FROM orders ORDER BY id

SELECT dept, round(avg(score), 2) AS avg_score, total(score) AS t, sum(score * score) * 1.0 / count(*) - avg(score) * avg(score) AS var FROM people GROUP BY dept ORDER BY dept

SELECT name, iif(score > 50, 'pass', 'fail') AS result, ifnull(city, 'none') AS c FROM people ORDER BY iif(dept = 'eng', 0, 1), name

SELECT dept, SUM(CASE WHEN score >= 50 THEN 1 ELSE 0 END) AS passing, SUM(score < 50) AS failing FROM people GROUP BY dept ORDER BY dept

SELECT dept, COUNT(*) AS n FROM people GROUP BY dept HAVING SUM(city = 'Oslo') >= 1 ORDER BY dept

SELECT name, COALESCE(NULLIF(score, 0), -1) AS s, max(0, score - 50) AS over_fifty, min(score, 50) AS capped FROM people ORDER BY id

SELECT name, score, SUM(score) OVER (PARTITION BY dept ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS moving FROM people ORDER BY dept, id

SELECT id, amount, lag(amount, 1, 0) OVER w AS prev, lead(amount, 2, -1) OVER w AS next2, first_value(amount) OVER w AS first, last_value(amount) OVER (ORDER BY placed ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS last FROM orders WINDOW w AS (ORDER BY placed) ORDER BY id

SELECT name, ntile(4) OVER (ORDER BY score DESC, id) AS quartile, percent_rank() OVER (ORDER BY score) AS pr, nth_value(name, 2) OVER (ORDER BY score DESC, id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS runner_up FROM people ORDER BY id

SELECT * FROM (SELECT name, dept, score, RANK() OVER (PARTITION BY dept ORDER BY score DESC) AS r FROM people) ranked WHERE r <= 2 ORDER BY dept, r

SELECT id, amount, SUM(amount) OVER (ORDER BY id RANGE BETWEEN 2 PRECEDING AND CURRENT ROW) AS near_sum FROM orders ORDER BY id

SELECT id, amount, count(*) OVER (ORDER BY amount GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW) AS neighbours FROM orders ORDER BY id

SELECT status, COUNT(*) FILTER (WHERE amount > 30) AS big, SUM(amount) FILTER (WHERE placed < '2024-06-01') AS early FROM orders GROUP BY status ORDER BY status

SELECT dept, AVG(score) AS a FROM people GROUP BY dept HAVING AVG(score) > (SELECT AVG(score) FROM people) ORDER BY dept

SELECT dept, COUNT(*) AS n FROM people GROUP BY dept HAVING n > 3 ORDER BY n DESC

SELECT p.name, (SELECT MAX(o.amount) FROM orders o WHERE o.person_id = p.id) AS biggest FROM people p ORDER BY p.id

SELECT name FROM people p WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.person_id = p.id) ORDER BY name

SELECT name FROM people WHERE id NOT IN (SELECT person_id FROM orders WHERE person_id IS NOT NULL) ORDER BY name

SELECT name, score FROM people WHERE score > (SELECT MAX(score) FROM people WHERE dept = 'ops') ORDER BY name

WITH totals AS (SELECT person_id, SUM(amount) AS total FROM orders GROUP BY person_id), ranked AS (SELECT person_id, total, DENSE_RANK() OVER (ORDER BY total DESC) AS r FROM totals) SELECT p.name, r.total, r.r FROM ranked r JOIN people p ON p.id = r.person_id WHERE r.r <= 3 ORDER BY r.r

WITH RECURSIVE months(m) AS (SELECT '2024-01-01' UNION ALL SELECT date(m, '+1 month') FROM months WHERE m < '2024-12-01') SELECT m.m, COUNT(o.id) AS n FROM months m LEFT JOIN orders o ON strftime('%Y-%m', o.placed) = strftime('%Y-%m', m.m) GROUP BY m.m ORDER BY m.m

WITH RECURSIVE fib(n, a, b) AS (SELECT 1, 0, 1 UNION ALL SELECT n + 1, b, a + b FROM fib WHERE n < 10) SELECT n, a FROM fib ORDER BY n

SELECT kind FROM pets UNION ALL SELECT status FROM orders ORDER BY 1 LIMIT 5 OFFSET 2

SELECT city FROM people INTERSECT SELECT city FROM people WHERE score < 60 ORDER BY city

SELECT dept FROM people EXCEPT SELECT dept FROM people WHERE score > 90 ORDER BY dept

SELECT name FROM people ORDER BY score DESC, id LIMIT 2, 3

SELECT name, city FROM people WHERE city IS NOT 'Oslo' ORDER BY id

SELECT name, city FROM people WHERE city IS DISTINCT FROM 'Lima' ORDER BY id

SELECT name FROM people WHERE dept IN ('eng', 'sales') AND born BETWEEN '1980-01-01' AND '1986-12-31' ORDER BY born

SELECT p.name, o.id FROM people p JOIN orders o ON o.person_id = p.id JOIN people q USING (dept) WHERE q.name = 'ann' ORDER BY o.id

SELECT a.name AS first, b.name AS second FROM people a JOIN people b ON a.dept = b.dept AND a.id < b.id WHERE a.score > b.score ORDER BY 1, 2

SELECT d.dept, k.kind FROM (SELECT DISTINCT dept FROM people) d CROSS JOIN (SELECT DISTINCT kind FROM pets) k ORDER BY 1, 2

SELECT p.name FROM people p LEFT JOIN orders o ON o.person_id = p.id WHERE o.id IS NULL ORDER BY p.name

SELECT dept, group_concat(name, ', ') AS names, group_concat(DISTINCT city) AS cities FROM people GROUP BY dept ORDER BY dept

SELECT dept, string_agg(name, ';') AS names FROM (SELECT dept, name FROM people ORDER BY name) GROUP BY dept ORDER BY dept

SELECT json_object('name', name, 'score', score) AS j FROM people ORDER BY id

SELECT json_extract(json_object('a', name, 'b', score), '$.b') AS b, json_object('a', name) ->> '$.a' AS a FROM people ORDER BY id

SELECT dept, json_group_array(name) AS names FROM people GROUP BY dept ORDER BY dept

SELECT name, score * 1.0 / NULLIF(SUM(score) OVER (), 0) AS share FROM people ORDER BY id

SELECT "name", "Dept Count" FROM (SELECT dept AS "name", COUNT(*) AS "Dept Count" FROM people GROUP BY dept) AS "Summary" ORDER BY "Dept Count" DESC, "name"

SELECT [name], [dept] FROM people WHERE [score] > 50 ORDER BY [id]

SELECT kind, COUNT(*) AS n FROM pets WHERE age BETWEEN 2 AND 6 GROUP BY kind HAVING COUNT(*) > 0 ORDER BY n DESC, kind

SELECT o.status, p.city, COUNT(*) AS n FROM orders o NATURAL JOIN (SELECT id AS person_id, city FROM people) p GROUP BY o.status, p.city ORDER BY 1, 2

SELECT name, hex(name) AS h, typeof(score) AS t, char(65 + id) AS letter FROM people ORDER BY id

SELECT DISTINCT dept FROM people WHERE score BETWEEN 10 AND 90 ORDER BY dept DESC

SELECT name, CASE WHEN CAST(strftime('%m', born) AS INTEGER) IN (12, 1, 2) THEN 'winter' WHEN CAST(strftime('%m', born) AS INTEGER) BETWEEN 3 AND 5 THEN 'spring' ELSE 'other' END AS season FROM people ORDER BY id

SELECT match.name, match.dept FROM people AS match WHERE match.score > 10 ORDER BY match.id

SELECT name, 10 < score < 50 AS chained, score FROM people WHERE 0 <= id <= 1 ORDER BY id

SELECT [name] AS [full`name] FROM people WHERE score > 1 ORDER BY id
