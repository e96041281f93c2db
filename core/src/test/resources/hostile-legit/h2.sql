-- Legitimate H2 SQL a model writes over the hostile fixture's allowed data (people without ssn and
-- salary, pets and orders through their row filters; orders is a filtered table with a denied column).
-- One statement per blank-line-separated block; every one returns rows. LegitimateDialectSqlTest runs each
-- through the full default path: none may be refused.

SELECT name, dept FROM people ORDER BY name

SELECT dept, COUNT(*) AS n FROM people GROUP BY dept ORDER BY n DESC

SELECT dept AS d, COUNT(*) AS n FROM people GROUP BY d ORDER BY d

SELECT name, score, RANK() OVER (ORDER BY score DESC) AS r FROM people

SELECT name, dept, ROW_NUMBER() OVER (PARTITION BY dept ORDER BY born) AS rn FROM people

SELECT name, score, LAG(score) OVER (ORDER BY id) AS prev, LEAD(score, 1, 0) OVER (ORDER BY id) AS next FROM people

SELECT name, dept, AVG(score) OVER (PARTITION BY dept) AS dept_avg FROM people

SELECT name, SUM(score) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS running FROM people

SELECT name, NTILE(3) OVER (ORDER BY score) AS bucket, PERCENT_RANK() OVER (ORDER BY score) AS pr, CUME_DIST() OVER (ORDER BY score) AS cd FROM people

SELECT DISTINCT dept, FIRST_VALUE(name) OVER (PARTITION BY dept ORDER BY score DESC) AS best FROM people

SELECT PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY score) AS median FROM people

SELECT dept, PERCENTILE_DISC(0.9) WITHIN GROUP (ORDER BY score) AS p90 FROM people GROUP BY dept

SELECT MODE() WITHIN GROUP (ORDER BY kind) AS common_kind FROM pets

SELECT MEDIAN(score) AS med FROM people

SELECT LISTAGG(name, ', ') WITHIN GROUP (ORDER BY name) AS names FROM people

SELECT COUNT(*) FILTER (WHERE score > 50) AS high, COUNT(*) FILTER (WHERE score <= 50) AS low FROM people

SELECT dept, SUM(score) FILTER (WHERE city = 'Oslo') AS oslo_score, COUNT(*) AS n FROM people GROUP BY dept

SELECT status, COUNT(*) FILTER (WHERE amount > 30) AS big_orders FROM orders GROUP BY status

WITH d(dept_name, people_count) AS (SELECT dept, COUNT(*) FROM people GROUP BY dept) SELECT dept_name, people_count FROM d ORDER BY people_count DESC

WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5) SELECT i FROM n

WITH RECURSIVE chain(id, depth) AS (SELECT id, 1 FROM people WHERE id = 1 UNION ALL SELECT p.id, c.depth + 1 FROM people p JOIN chain c ON p.id = c.id + 1 WHERE c.depth < 4) SELECT id, depth FROM chain

WITH busy AS (SELECT person_id, COUNT(*) AS n FROM orders GROUP BY person_id) SELECT p.name, b.n FROM people p JOIN busy b ON b.person_id = p.id

SELECT id, amount, status FROM orders ORDER BY amount DESC

SELECT status, SUM(amount) AS total FROM orders GROUP BY status

SELECT o.id, o.placed, o.amount FROM orders o WHERE o.amount BETWEEN 20 AND 60

SELECT p.name, (SELECT COUNT(*) FROM orders o WHERE o.person_id = p.id) AS orders_count FROM people p

SELECT name FROM people p WHERE EXISTS (SELECT 1 FROM orders o WHERE o.person_id = p.id)

SELECT name FROM people p WHERE score > (SELECT AVG(score) FROM people q WHERE q.dept = p.dept)

SELECT name FROM people WHERE id IN (SELECT person_id FROM orders WHERE status = 'open')

SELECT kind AS label FROM pets UNION SELECT status FROM orders ORDER BY 1

SELECT dept FROM people INTERSECT SELECT dept FROM people WHERE score > 20

SELECT city FROM people EXCEPT SELECT city FROM people WHERE score > 90

SELECT name, CASE WHEN score >= 70 THEN 'high' WHEN score >= 40 THEN 'mid' ELSE 'low' END AS band FROM people

SELECT name, CASE dept WHEN 'eng' THEN 1 ELSE 0 END AS is_eng FROM people

SELECT COALESCE(NULLIF(city, 'Oslo'), 'home') AS place, COUNT(*) AS n FROM people GROUP BY COALESCE(NULLIF(city, 'Oslo'), 'home')

SELECT name, IFNULL(city, '?') AS c, NVL(dept, '?') AS d FROM people

SELECT UPPER(name) AS u, LOWER(dept) AS l, LENGTH(name) AS len, CHAR_LENGTH(city) AS cl FROM people

SELECT SUBSTRING(name, 1, 2) AS s, LEFT(city, 2) AS l, RIGHT(city, 2) AS r FROM people

SELECT CONCAT(name, '@', dept) AS handle, CONCAT_WS('-', city, dept) AS place, name || '/' || city AS slash FROM people

SELECT REPLACE(city, 'o', '0') AS c, TRIM('  x  ') AS t, LPAD(name, 6, '.') AS lp, RPAD(name, 6, '.') AS rp FROM people

SELECT LOCATE('a', name) AS loc, POSITION('a', name) AS pos FROM people

SELECT dept, STRING_AGG(name, ', ') AS names FROM people GROUP BY dept

SELECT ARRAY_AGG(kind ORDER BY kind) AS kinds FROM pets

SELECT EXTRACT(YEAR FROM born) AS y, COUNT(*) AS n FROM people GROUP BY EXTRACT(YEAR FROM born) ORDER BY y

SELECT YEAR(born) AS y, MONTH(born) AS m, DAY_OF_MONTH(born) AS d FROM people

SELECT id, DATEADD('DAY', 7, placed) AS due FROM orders

SELECT id, DATEDIFF('DAY', placed, DATE '2025-01-01') AS days_before FROM orders

SELECT FORMATDATETIME(placed, 'yyyy-MM') AS ym, COUNT(*) AS n FROM orders GROUP BY FORMATDATETIME(placed, 'yyyy-MM')

SELECT TO_CHAR(placed, 'YYYY-MM-DD') AS ymd, DATE_TRUNC('MONTH', placed) AS m FROM orders

SELECT DAYNAME(placed) AS dn, MONTHNAME(placed) AS mn, QUARTER(placed) AS q FROM orders

SELECT ROUND(AVG(amount), 2) AS mean, MAX(amount) AS hi, MIN(amount) AS lo, SUM(amount) AS total FROM orders

SELECT status, COUNT(*) AS n, SUM(amount) AS total FROM orders GROUP BY status HAVING COUNT(*) >= 1 ORDER BY total DESC

SELECT o.id, p.name, o.amount FROM orders o JOIN people p ON p.id = o.person_id WHERE o.amount > 20

SELECT GREATEST(score, 50) AS g, LEAST(score, 50) AS l, ABS(score - 50) AS a, MOD(score, 7) AS m FROM people

SELECT name FROM people WHERE name LIKE 'a%' OR name ILIKE 'B%'

SELECT name FROM people WHERE born BETWEEN DATE '1980-01-01' AND DATE '1985-12-31'

SELECT kind, COUNT(*) AS n FROM pets GROUP BY kind ORDER BY COUNT(*) DESC, kind

SELECT owner, COUNT(*) AS n FROM pets GROUP BY owner

SELECT tenant, COUNT(*) AS n FROM orders GROUP BY tenant

SELECT id, CAST(amount AS INTEGER) AS whole FROM orders

SELECT BOOL_AND(score > 0) AS all_positive, BOOL_OR(score > 90) AS any_high FROM people

SELECT name FROM people ORDER BY score DESC NULLS LAST FETCH FIRST 5 ROWS ONLY

SELECT name FROM people ORDER BY id OFFSET 2 ROWS FETCH NEXT 3 ROWS ONLY

SELECT p.name, COUNT(o.id) AS n FROM people p LEFT JOIN orders o ON o.person_id = p.id GROUP BY p.name ORDER BY n DESC

SELECT k.kind, AVG(k.age) AS mean_age FROM pets k GROUP BY k.kind HAVING AVG(k.age) > 1

SELECT REPEAT('-', 10) AS line, REGEXP_REPLACE(name, '[aeiou]', '*') AS masked FROM people

SELECT x.d, x.n FROM (SELECT dept AS d, COUNT(*) AS n FROM people GROUP BY dept) x WHERE x.n > 1

SELECT o.status, p.dept, SUM(o.amount) AS total FROM orders o JOIN people p ON p.id = o.person_id GROUP BY o.status, p.dept
