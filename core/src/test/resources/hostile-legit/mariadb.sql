-- Legitimate MariaDB a model writes over the hostile fixture's allowed data (people without ssn and
-- salary, pets and orders through their row filters). One statement per blank-line-separated block; every
-- one returns rows. LegitimateDialectSqlTest runs each through the full default path: none may be refused.

SELECT name, dept FROM people ORDER BY name

SELECT dept, COUNT(*) AS n FROM people GROUP BY dept ORDER BY n DESC

SELECT dept AS d, COUNT(*) AS n FROM people GROUP BY d ORDER BY d

SELECT name, score, RANK() OVER (ORDER BY score DESC) AS r FROM people

SELECT name, dept, ROW_NUMBER() OVER (PARTITION BY dept ORDER BY born) AS rn FROM people

SELECT name, score, LAG(score) OVER (ORDER BY id) AS prev, LEAD(score, 1) OVER (ORDER BY id) AS next FROM people

SELECT name, dept, AVG(score) OVER (PARTITION BY dept) AS dept_avg FROM people

SELECT name, SUM(score) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS running FROM people

SELECT name, NTILE(3) OVER (ORDER BY score) AS bucket, PERCENT_RANK() OVER (ORDER BY score) AS pr, CUME_DIST() OVER (ORDER BY score) AS cd FROM people

SELECT DISTINCT dept, FIRST_VALUE(name) OVER (PARTITION BY dept ORDER BY score DESC) AS best FROM people

SELECT DISTINCT PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY score) OVER () AS median FROM people

SELECT DISTINCT dept, PERCENTILE_DISC(0.9) WITHIN GROUP (ORDER BY score) OVER (PARTITION BY dept) AS p90 FROM people

SELECT DISTINCT dept, MEDIAN(score) OVER (PARTITION BY dept) AS med FROM people

SELECT name FROM people USE INDEX (idx_people_dept) WHERE dept = 'eng'

SELECT name FROM people FORCE INDEX (idx_people_dept) WHERE dept = 'ops'

SELECT name FROM people IGNORE INDEX (idx_people_dept) WHERE dept = 'sales'

SELECT p.name, o.amount FROM people p USE INDEX FOR JOIN (PRIMARY) JOIN orders o ON o.person_id = p.id

SELECT STRAIGHT_JOIN p.name, o.amount FROM people p JOIN orders o ON o.person_id = p.id

SELECT p.name, o.amount FROM people p STRAIGHT_JOIN orders o ON o.person_id = p.id

SELECT SQL_NO_CACHE name FROM people WHERE score > 10

SELECT SQL_SMALL_RESULT dept, COUNT(*) AS n FROM people GROUP BY dept

SELECT SQL_BUFFER_RESULT name FROM people WHERE id < 5

SELECT HIGH_PRIORITY name FROM people WHERE id < 4

WITH d(dept_name, people_count) AS (SELECT dept, COUNT(*) FROM people GROUP BY dept) SELECT dept_name, people_count FROM d ORDER BY people_count DESC

WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5) SELECT i FROM n

WITH RECURSIVE chain AS (SELECT id, 1 AS depth FROM people WHERE id = 1 UNION ALL SELECT p.id, c.depth + 1 FROM people p JOIN chain c ON p.id = c.id + 1 WHERE c.depth < 4) SELECT id, depth FROM chain

WITH busy AS (SELECT person_id, COUNT(*) AS n FROM orders GROUP BY person_id) SELECT p.name, b.n FROM people p JOIN busy b ON b.person_id = p.id

SELECT name FROM people WHERE dept = 'eng' || city = 'Oslo'

SELECT name FROM people WHERE score > 90 || score < 20

SELECT p.name, (SELECT COUNT(*) FROM orders o WHERE o.person_id = p.id) AS orders_count FROM people p

SELECT name FROM people p WHERE EXISTS (SELECT 1 FROM orders o WHERE o.person_id = p.id)

SELECT name FROM people p WHERE score > (SELECT AVG(score) FROM people q WHERE q.dept = p.dept)

SELECT name FROM people WHERE id IN (SELECT person_id FROM orders WHERE status = 'open')

SELECT kind AS label FROM pets UNION SELECT status FROM orders ORDER BY 1

SELECT dept FROM people INTERSECT SELECT dept FROM people WHERE score > 20

SELECT city FROM people EXCEPT SELECT city FROM people WHERE score > 90

SELECT name, CASE WHEN score >= 70 THEN 'high' WHEN score >= 40 THEN 'mid' ELSE 'low' END AS band FROM people

SELECT COALESCE(NULLIF(city, 'Oslo'), 'home') AS place, COUNT(*) AS n FROM people GROUP BY place

SELECT name, IFNULL(city, '?') AS c, IF(score > 50, 'high', 'low') AS level FROM people

SELECT UPPER(name) AS u, LOWER(dept) AS l, LENGTH(name) AS len, CHAR_LENGTH(city) AS cl FROM people

SELECT SUBSTRING(name, 1, 2) AS s, LEFT(city, 2) AS l, RIGHT(city, 2) AS r, REVERSE(name) AS rev FROM people

SELECT CONCAT(name, '@', dept) AS handle, CONCAT_WS('-', city, dept) AS place FROM people

SELECT REPLACE(city, 'o', '0') AS c, TRIM('  x  ') AS t, LPAD(name, 6, '.') AS lp, RPAD(name, 6, '.') AS rp FROM people

SELECT LOCATE('a', name) AS loc, INSTR(name, 'a') AS ins, SUBSTRING_INDEX('a,b,c', ',', 2) AS part FROM people

SELECT dept, GROUP_CONCAT(name ORDER BY name SEPARATOR ', ') AS names FROM people GROUP BY dept

SELECT DATE_FORMAT(placed, '%Y-%m') AS month, COUNT(*) AS n FROM orders GROUP BY month

SELECT YEAR(born) AS y, MONTH(born) AS m, DAY(born) AS d FROM people

SELECT id, DATEDIFF('2025-01-01', placed) AS days_before FROM orders

SELECT id, DATE_ADD(placed, INTERVAL 7 DAY) AS due FROM orders

SELECT name, TIMESTAMPDIFF(YEAR, born, '2025-01-01') AS age FROM people

SELECT DAYNAME(placed) AS dn, MONTHNAME(placed) AS mn, WEEKDAY(placed) AS wd, QUARTER(placed) AS q FROM orders

SELECT LAST_DAY(placed) AS month_end, STR_TO_DATE('2024-05-01', '%Y-%m-%d') AS may FROM orders

SELECT ROUND(AVG(amount), 2) AS mean, MAX(amount) AS hi, MIN(amount) AS lo, SUM(amount) AS total FROM orders

SELECT status, COUNT(*) AS n, SUM(amount) AS total FROM orders GROUP BY status HAVING COUNT(*) >= 1 ORDER BY total DESC

SELECT o.id, p.name, o.amount FROM orders o JOIN people p ON p.id = o.person_id WHERE o.amount > 20

SELECT dept, COUNT(*) AS n FROM people GROUP BY dept WITH ROLLUP

SELECT GREATEST(score, 50) AS g, LEAST(score, 50) AS l, ABS(score - 50) AS a, MOD(score, 7) AS m FROM people

SELECT name FROM people WHERE name LIKE 'a%' OR name LIKE 'b%'

SELECT name FROM people WHERE born BETWEEN '1980-01-01' AND '1985-12-31'

SELECT kind, COUNT(*) AS n FROM pets GROUP BY kind ORDER BY COUNT(*) DESC, kind

SELECT owner, COUNT(*) AS n FROM pets GROUP BY owner

SELECT tenant, COUNT(*) AS n FROM orders GROUP BY tenant

SELECT id, CAST(amount AS SIGNED) AS whole FROM orders

SELECT name FROM people ORDER BY id LIMIT 3 OFFSET 2

SELECT p.name, COUNT(o.id) AS n FROM people p LEFT JOIN orders o ON o.person_id = p.id GROUP BY p.name ORDER BY n DESC

SELECT k.kind, AVG(k.age) AS mean_age FROM pets k GROUP BY k.kind HAVING AVG(k.age) > 1

SELECT JSON_OBJECT('name', name, 'dept', dept) AS j FROM people

SELECT MD5(name) AS h, REPEAT('-', 10) AS line FROM people

SELECT FIELD(dept, 'eng', 'ops', 'sales') AS f, FIND_IN_SET(dept, 'eng,ops') AS fs FROM people

SELECT x.d, x.n FROM (SELECT dept AS d, COUNT(*) AS n FROM people GROUP BY dept) x WHERE x.n > 1

SELECT name FROM people WHERE name REGEXP '^[ab]'

SELECT o.status, p.dept, SUM(o.amount) AS total FROM orders o JOIN people p ON p.id = o.person_id GROUP BY o.status, p.dept
