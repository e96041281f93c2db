-- Held-out legitimate MariaDB (LegitimateHeldOutTest): statements a text-to-SQL model writes over the
-- hostile fixture's allowed data, none of them in hostile-legit/mariadb.sql. One statement per
-- blank-line-separated block; every one returns rows, in a deterministic order.

SELECT DATE_FORMAT(placed, '%Y-%m') AS month, COUNT(*) AS orders, ROUND(SUM(amount), 2) AS revenue FROM orders GROUP BY month ORDER BY month

SELECT name, DATE_FORMAT(born, '%M %Y') AS born_month FROM people ORDER BY born

SELECT name, TIMESTAMPDIFF(YEAR, born, '2025-06-30') AS age FROM people ORDER BY age DESC, name

SELECT id, DATE_ADD(placed, INTERVAL 30 DAY) AS due, DATE_SUB(placed, INTERVAL 1 MONTH) AS month_before FROM orders ORDER BY id

SELECT id, placed + INTERVAL 2 WEEK AS later, DATEDIFF('2025-01-01', placed) AS days_left FROM orders ORDER BY id

SELECT DAYNAME(placed) AS weekday, COUNT(*) AS n FROM orders GROUP BY weekday ORDER BY weekday

SELECT YEAR(born) AS y, MONTH(born) AS m, DAYOFWEEK(born) AS dow, QUARTER(born) AS q FROM people ORDER BY id

SELECT EXTRACT(YEAR_MONTH FROM placed) AS ym, WEEK(placed) AS wk, LAST_DAY(placed) AS month_end FROM orders ORDER BY id

SELECT id FROM orders WHERE placed BETWEEN '2024-03-01' AND '2024-06-30' ORDER BY id

SELECT name, STR_TO_DATE(CONCAT('15/', LPAD(MONTH(born), 2, '0'), '/2000'), '%d/%m/%Y') AS birthday_2000 FROM people ORDER BY id

SELECT name, SUBSTRING_INDEX(CONCAT(name, '.', dept, '.', city), '.', 2) AS first_two FROM people ORDER BY id

SELECT name, LOCATE('o', city) AS o_at, INSTR(city, 'i') AS i_at, CHAR_LENGTH(city) AS len FROM people ORDER BY id

SELECT name, CONCAT_WS(' / ', dept, city, score) AS summary FROM people ORDER BY name

SELECT CONCAT(UPPER(LEFT(name, 1)), SUBSTRING(name, 2)) AS title_name, RIGHT(city, 3) AS tail FROM people ORDER BY 1

SELECT name, REGEXP_REPLACE(city, '[aeiou]', '') AS no_vowels, REGEXP_SUBSTR(city, '[A-Z][a-z]') AS first2 FROM people ORDER BY id

SELECT name FROM people WHERE name REGEXP '^[aeiou]' ORDER BY name

SELECT name FROM people WHERE city RLIKE 'o$' ORDER BY name

SELECT name, FORMAT(score * 1000.5, 2) AS formatted, LPAD(score, 5, '0') AS padded FROM people ORDER BY id

SELECT id, ROUND(amount * 1.2, 2) AS gross, CEIL(amount) AS up, FLOOR(amount) AS down, TRUNCATE(amount, 0) AS t FROM orders ORDER BY id

SELECT id, amount % 7 AS r, MOD(id, 3) AS m, id DIV 2 AS half, CAST(amount AS DECIMAL(10,1)) AS one_dp FROM orders ORDER BY id

SELECT id, CAST(amount AS SIGNED) AS whole, CAST(id AS CHAR) AS id_text, CONVERT(amount, DECIMAL(8,2)) AS conv FROM orders ORDER BY id

SELECT dept, ROUND(AVG(score), 2) AS avg_score, ROUND(STDDEV_POP(score), 2) AS sd, VARIANCE(score) AS v FROM people GROUP BY dept ORDER BY dept

SELECT name, IF(score > 50, 'pass', 'fail') AS result, IFNULL(city, 'none') AS c FROM people ORDER BY IF(dept = 'eng', 0, 1), name

SELECT dept, SUM(IF(score >= 50, 1, 0)) AS passing, SUM(CASE WHEN score < 50 THEN 1 ELSE 0 END) AS failing FROM people GROUP BY dept ORDER BY dept

SELECT dept, COUNT(*) AS n FROM people GROUP BY dept HAVING SUM(city = 'Oslo') >= 1 ORDER BY dept

SELECT name, COALESCE(NULLIF(score, 0), -1) AS s, GREATEST(0, score - 50) AS over_fifty FROM people ORDER BY id

SELECT name, score, SUM(score) OVER (PARTITION BY dept ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS moving FROM people ORDER BY dept, id

SELECT id, amount, COALESCE(LAG(amount, 1) OVER w, 0) AS prev, LEAD(amount, 2) OVER w AS next2, FIRST_VALUE(amount) OVER w AS first FROM orders WINDOW w AS (ORDER BY placed) ORDER BY id

SELECT name, NTILE(4) OVER (ORDER BY score DESC, id) AS quartile, PERCENT_RANK() OVER (ORDER BY score) AS pr FROM people ORDER BY id

SELECT * FROM (SELECT name, dept, score, RANK() OVER (PARTITION BY dept ORDER BY score DESC) AS r FROM people) ranked WHERE r <= 2 ORDER BY dept, r

SELECT id, amount, SUM(amount) OVER (ORDER BY id RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running FROM orders ORDER BY id

SELECT dept, city, COUNT(*) AS n FROM people GROUP BY dept, city WITH ROLLUP

SELECT dept, AVG(score) AS a FROM people GROUP BY dept HAVING AVG(score) > (SELECT AVG(score) FROM people) ORDER BY dept

SELECT dept, COUNT(*) AS n FROM people GROUP BY dept HAVING n > 3 ORDER BY n DESC

SELECT p.name, (SELECT MAX(o.amount) FROM orders o WHERE o.person_id = p.id) AS biggest FROM people p ORDER BY p.id

SELECT name FROM people p WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.person_id = p.id) ORDER BY name

SELECT name FROM people WHERE id NOT IN (SELECT person_id FROM orders WHERE person_id IS NOT NULL) ORDER BY name

SELECT name, score FROM people WHERE score > ALL (SELECT score FROM people WHERE dept = 'ops') ORDER BY name

SELECT name FROM people WHERE id = ANY (SELECT person_id FROM orders WHERE status = 'closed') ORDER BY name

WITH totals AS (SELECT person_id, SUM(amount) AS total FROM orders GROUP BY person_id), ranked AS (SELECT person_id, total, DENSE_RANK() OVER (ORDER BY total DESC) AS r FROM totals) SELECT p.name, r.total, r.r FROM ranked r JOIN people p ON p.id = r.person_id WHERE r.r <= 3 ORDER BY r.r

WITH RECURSIVE months(m) AS (SELECT DATE '2024-01-01' UNION ALL SELECT m + INTERVAL 1 MONTH FROM months WHERE m < '2024-12-01') SELECT m.m, COUNT(o.id) AS n FROM months m LEFT JOIN orders o ON DATE_FORMAT(o.placed, '%Y-%m') = DATE_FORMAT(m.m, '%Y-%m') GROUP BY m.m ORDER BY m.m

WITH RECURSIVE fib(n, a, b) AS (SELECT 1, 0, 1 UNION ALL SELECT n + 1, b, a + b FROM fib WHERE n < 10) SELECT n, a FROM fib ORDER BY n

SELECT kind FROM pets UNION ALL SELECT status FROM orders ORDER BY 1 LIMIT 5 OFFSET 2

(SELECT name FROM people WHERE dept = 'eng' ORDER BY score DESC LIMIT 2) UNION (SELECT name FROM people WHERE dept = 'ops' ORDER BY score DESC LIMIT 2) ORDER BY name

SELECT city FROM people INTERSECT SELECT city FROM people WHERE score < 60 ORDER BY city

SELECT dept FROM people EXCEPT SELECT dept FROM people WHERE score > 90 ORDER BY dept

SELECT name FROM people ORDER BY score DESC, id LIMIT 2, 3

SELECT name FROM people ORDER BY id LIMIT 3 OFFSET 4

SELECT name, city FROM people WHERE NOT (city <=> 'Oslo') ORDER BY id

SELECT name FROM people WHERE dept IN ('eng', 'sales') AND born BETWEEN '1980-01-01' AND '1986-12-31' ORDER BY born

SELECT p.name, o.id FROM people p JOIN orders o ON o.person_id = p.id JOIN people q USING (dept) WHERE q.name = 'ann' ORDER BY o.id

SELECT a.name AS first, b.name AS second FROM people a JOIN people b ON a.dept = b.dept AND a.id < b.id WHERE a.score > b.score ORDER BY 1, 2

SELECT d.dept, k.kind FROM (SELECT DISTINCT dept FROM people) d CROSS JOIN (SELECT DISTINCT kind FROM pets) k ORDER BY 1, 2

SELECT p.name FROM people p LEFT JOIN orders o ON o.person_id = p.id WHERE o.id IS NULL ORDER BY p.name

SELECT dept, GROUP_CONCAT(name ORDER BY name SEPARATOR ', ') AS names, GROUP_CONCAT(DISTINCT city) AS cities FROM people GROUP BY dept ORDER BY dept

SELECT JSON_OBJECT('name', name, 'score', score) AS j FROM people ORDER BY id

SELECT JSON_EXTRACT(JSON_OBJECT('a', name, 'b', score), '$.b') AS b, JSON_UNQUOTE(JSON_EXTRACT(JSON_OBJECT('a', name), '$.a')) AS a FROM people ORDER BY id

SELECT dept, JSON_ARRAYAGG(name) AS names FROM people GROUP BY dept ORDER BY dept

SELECT name, score / NULLIF(SUM(score) OVER (), 0) AS share FROM people ORDER BY id

SELECT `name`, `Dept Count` FROM (SELECT dept AS `name`, COUNT(*) AS `Dept Count` FROM people GROUP BY dept) AS `Summary` ORDER BY `Dept Count` DESC, `name`

SELECT kind, COUNT(*) AS n FROM pets WHERE age BETWEEN 2 AND 6 GROUP BY kind HAVING COUNT(*) > 0 ORDER BY n DESC, kind

SELECT name, CASE WHEN MONTH(born) IN (12, 1, 2) THEN 'winter' WHEN MONTH(born) IN (3, 4, 5) THEN 'spring' WHEN MONTH(born) IN (6, 7, 8) THEN 'summer' ELSE 'autumn' END AS season FROM people ORDER BY id

SELECT o.status, p.city, COUNT(*) AS n FROM orders o JOIN people p ON p.id = o.person_id WHERE o.amount >= 20 GROUP BY o.status, p.city ORDER BY 1, 2

SELECT name, ELT(1 + score % 3, 'a', 'b', 'c') AS pick, FIELD(dept, 'eng', 'ops', 'sales') AS dept_no FROM people ORDER BY id

SELECT DISTINCT dept FROM people WHERE score BETWEEN 10 AND 90 ORDER BY dept DESC

SELECT name, UNIX_TIMESTAMP(born) IS NOT NULL AS ok, TO_DAYS(born) AS td FROM people ORDER BY id

SELECT dept, COUNT(*) AS n, MAX(score) AS top FROM people GROUP BY dept DESC
