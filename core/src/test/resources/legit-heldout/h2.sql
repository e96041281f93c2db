-- Held-out legitimate H2 (LegitimateHeldOutTest): statements a text-to-SQL model writes over the hostile
-- fixture's allowed data, none of them in hostile-legit/h2.sql. One statement per blank-line-separated
-- block; every one returns rows, in a deterministic order.

SELECT FORMATDATETIME(placed, 'yyyy-MM') AS ym, COUNT(*) AS orders, ROUND(SUM(amount), 2) AS revenue FROM orders GROUP BY FORMATDATETIME(placed, 'yyyy-MM') ORDER BY ym

SELECT name, FORMATDATETIME(born, 'MMM yyyy') AS born_month FROM people ORDER BY born

SELECT name, DATEDIFF('YEAR', born, DATE '2025-06-30') AS age FROM people ORDER BY age DESC, name

SELECT id, DATEADD('DAY', 30, placed) AS due, DATEADD(MONTH, -1, placed) AS month_before FROM orders ORDER BY id

SELECT id, placed + INTERVAL '7' DAY AS week_later, DATEDIFF(DAY, placed, DATE '2025-01-01') AS days_left FROM orders ORDER BY id

SELECT DAYNAME(placed) AS weekday, COUNT(*) AS n FROM orders GROUP BY DAYNAME(placed) ORDER BY weekday

SELECT EXTRACT(YEAR FROM born) AS y, EXTRACT(MONTH FROM born) AS m, QUARTER(born) AS q, DAY_OF_WEEK(born) AS dow FROM people ORDER BY id

SELECT id, DATE_TRUNC('MONTH', placed) AS month_start, LAST_DAY(placed) AS month_end FROM orders ORDER BY id

SELECT id FROM orders WHERE placed BETWEEN DATE '2024-03-01' AND DATE '2024-06-30' ORDER BY id

SELECT name, PARSEDATETIME('2000-' || LPAD(CAST(MONTH(born) AS VARCHAR), 2, '0') || '-15', 'yyyy-MM-dd') AS birthday_2000 FROM people ORDER BY id

SELECT name, SUBSTRING(city FROM 1 FOR 3) AS c3, LEFT(city, 2) AS l, RIGHT(city, 2) AS r FROM people ORDER BY id

SELECT name, LOCATE('o', city) AS o_at, POSITION('i' IN city) AS i_at, INSTR(city, 'a') AS a_at, CHAR_LENGTH(city) AS len FROM people ORDER BY id

SELECT name, CONCAT_WS(' / ', dept, city, score) AS summary FROM people ORDER BY name

SELECT UPPER(LEFT(name, 1)) || SUBSTRING(name, 2) AS title_name, LOWER(city) AS c FROM people ORDER BY 1

SELECT name, REGEXP_REPLACE(city, '[aeiou]', '') AS no_vowels, REGEXP_SUBSTR(city, '[A-Z][a-z]') AS first2 FROM people ORDER BY id

SELECT name FROM people WHERE REGEXP_LIKE(name, '^[aeiou]') ORDER BY name

SELECT name FROM people WHERE name REGEXP '^[bc]' ORDER BY name

SELECT name FROM people WHERE city ILIKE '%O%' ORDER BY name

SELECT name, CONCAT(name, ' works in ', dept) AS sentence, LPAD(CAST(score AS VARCHAR), 5, '0') AS padded FROM people ORDER BY id

SELECT id, ROUND(amount * 1.2, 2) AS gross, CEIL(amount) AS up, FLOOR(amount) AS down, TRUNCATE(amount, 0) AS t FROM orders ORDER BY id

SELECT id, MOD(id, 3) AS m, CAST(amount AS INTEGER) % 7 AS r, CAST(amount AS DECIMAL(10,1)) AS one_dp, amount / 3 AS third FROM orders ORDER BY id

SELECT dept, ROUND(AVG(CAST(score AS DOUBLE)), 2) AS avg_score, ROUND(STDDEV_POP(score), 2) AS sd, VAR_POP(score) AS v FROM people GROUP BY dept ORDER BY dept

SELECT name, CASEWHEN(score > 50, 'pass', 'fail') AS result, IFNULL(city, 'none') AS c, NVL2(city, 'has city', 'no city') AS hc FROM people ORDER BY id

SELECT dept, SUM(CASE WHEN score >= 50 THEN 1 ELSE 0 END) AS passing, COUNT(*) FILTER (WHERE score < 50) AS failing FROM people GROUP BY dept ORDER BY dept

SELECT dept, COUNT(*) AS n FROM people GROUP BY dept HAVING SUM(CASE WHEN city = 'Oslo' THEN 1 ELSE 0 END) >= 1 ORDER BY dept

SELECT name, COALESCE(NULLIF(score, 0), -1) AS s, GREATEST(0, score - 50) AS over_fifty, LEAST(score, 50) AS capped FROM people ORDER BY id

SELECT name, score, SUM(score) OVER (PARTITION BY dept ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS moving FROM people ORDER BY dept, id

SELECT id, amount, LAG(amount, 1, 0) OVER w AS prev, LEAD(amount, 2, -1) OVER w AS next2, FIRST_VALUE(amount) OVER w AS first FROM orders WINDOW w AS (ORDER BY placed) ORDER BY id

SELECT name, NTILE(4) OVER (ORDER BY score DESC, id) AS quartile, PERCENT_RANK() OVER (ORDER BY score) AS pr, NTH_VALUE(name, 2) OVER (ORDER BY score DESC, id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS runner_up FROM people ORDER BY id

SELECT * FROM (SELECT name, dept, score, RANK() OVER (PARTITION BY dept ORDER BY score DESC) AS r FROM people) ranked WHERE r <= 2 ORDER BY dept, r

SELECT id, amount, SUM(amount) OVER (ORDER BY amount RANGE BETWEEN 20 PRECEDING AND CURRENT ROW) AS near_sum FROM orders ORDER BY id

SELECT dept, COUNT(*) AS n FROM people GROUP BY dept UNION ALL SELECT 'all', COUNT(*) FROM people ORDER BY 1

SELECT dept, AVG(score) AS a FROM people GROUP BY dept HAVING AVG(score) > (SELECT AVG(score) FROM people) ORDER BY dept

SELECT p.name, (SELECT MAX(o.amount) FROM orders o WHERE o.person_id = p.id) AS biggest FROM people p ORDER BY p.id

SELECT name FROM people p WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.person_id = p.id) ORDER BY name

SELECT name FROM people WHERE id NOT IN (SELECT person_id FROM orders WHERE person_id IS NOT NULL) ORDER BY name

SELECT name, score FROM people WHERE score > ALL (SELECT score FROM people WHERE dept = 'ops') ORDER BY name

SELECT name FROM people WHERE id = ANY (SELECT person_id FROM orders WHERE status = 'closed') ORDER BY name

WITH totals AS (SELECT person_id, SUM(amount) AS total FROM orders GROUP BY person_id), ranked AS (SELECT person_id, total, DENSE_RANK() OVER (ORDER BY total DESC) AS r FROM totals) SELECT p.name, r.total, r.r FROM ranked r JOIN people p ON p.id = r.person_id WHERE r.r <= 3 ORDER BY r.r

SELECT kind FROM pets UNION ALL SELECT status FROM orders ORDER BY 1 LIMIT 5 OFFSET 2

SELECT city FROM people INTERSECT SELECT city FROM people WHERE score < 60 ORDER BY city

SELECT dept FROM people EXCEPT SELECT dept FROM people WHERE score > 90 ORDER BY dept

SELECT name FROM people ORDER BY score DESC, id FETCH FIRST 3 ROWS ONLY

SELECT name FROM people ORDER BY id OFFSET 4 ROWS FETCH NEXT 2 ROWS ONLY

SELECT name, city FROM people WHERE city IS DISTINCT FROM 'Oslo' ORDER BY id

SELECT name FROM people WHERE dept IN ('eng', 'sales') AND born BETWEEN DATE '1980-01-01' AND DATE '1986-12-31' ORDER BY born

SELECT p.name, o.id FROM people p JOIN orders o ON o.person_id = p.id JOIN people q USING (dept) WHERE q.name = 'ann' ORDER BY o.id

SELECT a.name AS first, b.name AS other FROM people a JOIN people b ON a.dept = b.dept AND a.id < b.id WHERE a.score > b.score ORDER BY 1, 2

SELECT d.dept, k.kind FROM (SELECT DISTINCT dept FROM people) d CROSS JOIN (SELECT DISTINCT kind FROM pets) k ORDER BY 1, 2

SELECT p.name FROM people p LEFT JOIN orders o ON o.person_id = p.id WHERE o.id IS NULL ORDER BY p.name

SELECT dept, MAX(name) AS last_name, MIN(city) AS first_city, COUNT(DISTINCT city) AS cities FROM people GROUP BY dept ORDER BY dept

SELECT JSON_OBJECT('name': name, 'score': score) AS j FROM people ORDER BY id

SELECT name, score * 1.0 / NULLIF(SUM(score) OVER (), 0) AS share FROM people ORDER BY id

SELECT "NAME", "Dept Count" FROM (SELECT dept AS "NAME", COUNT(*) AS "Dept Count" FROM people GROUP BY dept) AS "Summary" ORDER BY "Dept Count" DESC, "NAME"

SELECT kind, COUNT(*) AS n FROM pets WHERE age BETWEEN 2 AND 6 GROUP BY kind HAVING COUNT(*) > 0 ORDER BY n DESC, kind

SELECT name, CASE WHEN MONTH(born) IN (12, 1, 2) THEN 'winter' WHEN MONTH(born) IN (3, 4, 5) THEN 'spring' WHEN MONTH(born) IN (6, 7, 8) THEN 'summer' ELSE 'autumn' END AS season FROM people ORDER BY id

SELECT o.status, p.city, COUNT(*) AS n FROM orders o JOIN people p ON p.id = o.person_id WHERE o.amount >= 20 GROUP BY o.status, p.city ORDER BY 1, 2

SELECT DISTINCT dept FROM people WHERE score BETWEEN 10 AND 90 ORDER BY dept DESC

SELECT name, BIT_AND(score) OVER () AS ba, BIT_OR(score) OVER () AS bo FROM people ORDER BY id

SELECT dept, EVERY(score > 5) AS all_over_5, ANY_VALUE(city) IS NOT NULL AS has_city FROM people GROUP BY dept ORDER BY dept

SELECT name, CAST(born AS VARCHAR) AS born_text, CAST(score AS DOUBLE PRECISION) / 10 AS tenth FROM people ORDER BY id

SELECT name, TRANSLATE(city, 'ao', 'AO') AS tr, REPEAT('*', MOD(score, 5)) AS stars FROM people ORDER BY id

SELECT o.id, p.name FROM orders o, people p WHERE p.id = o.person_id AND o.status <> 'closed' ORDER BY o.id

SELECT name FROM people ORDER BY score DESC NULLS LAST, id LIMIT 4
