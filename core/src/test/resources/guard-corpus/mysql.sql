SELECT name FROM employees WHERE dept_id = 3 ORDER BY name

SELECT COUNT(*) FROM employees

SELECT e.name, d.name FROM employees AS e JOIN departments AS d ON e.dept_id = d.id

SELECT d.name, COUNT(*) AS n FROM employees e JOIN departments d ON e.dept_id = d.id GROUP BY d.name HAVING COUNT(*) > 2 ORDER BY n DESC LIMIT 5

SELECT YEAR(hired) AS y, COUNT(*) FROM employees GROUP BY YEAR(hired)

SELECT MONTH(created_at), DAY(created_at), HOUR(created_at) FROM orders

SELECT DATE_FORMAT(created_at, '%Y-%m') AS month, SUM(total) FROM orders GROUP BY month ORDER BY month

SELECT DATEDIFF(NOW(), hired) FROM employees

SELECT TIMESTAMPDIFF(YEAR, hired, CURDATE()) FROM employees

SELECT DATE_ADD(hired, INTERVAL 1 YEAR) FROM employees

SELECT DATE_SUB(CURDATE(), INTERVAL 7 DAY)

SELECT TIME_TO_SEC(TIMEDIFF(created_at, hired)) FROM orders JOIN employees ON employees.id = orders.customer_id

SELECT SUBTIME(created_at, '01:00:00') FROM orders

SELECT SUBSTRING_INDEX(email, '@', -1) AS domain FROM employees

SELECT SUBSTRING(name, 1, 3), LENGTH(name), UPPER(name), LOWER(name), TRIM(name) FROM employees

SELECT CONCAT(name, ' (', city, ')') FROM customers

SELECT GROUP_CONCAT(name ORDER BY name SEPARATOR ', ') FROM employees

SELECT GROUP_CONCAT(DISTINCT city) FROM customers

SELECT IFNULL(city, 'unknown') FROM customers

SELECT IF(total > 100, 'big', 'small') FROM orders

SELECT CASE WHEN total > 100 THEN 'big' ELSE 'small' END FROM orders

SELECT ROUND(AVG(total), 2) FROM orders

SELECT CAST(total AS SIGNED) FROM orders

SELECT CAST(created_at AS DATE) FROM orders

SELECT `name` FROM `customers` WHERE `city` = 'Rome'

SELECT name FROM customers WHERE city = "Rome"

SELECT number, uuid FROM customers

SELECT name FROM employees WHERE name = 'O\'Brien'

SELECT name FROM employees WHERE note = 'line\nbreak'

SELECT name FROM employees WHERE name = 'O''Brien'

SELECT name FROM customers WHERE name LIKE 'A%'

SELECT name FROM customers WHERE name REGEXP '^A'

SELECT DISTINCT city FROM customers ORDER BY city

SELECT name FROM employees WHERE dept_id IN (SELECT id FROM departments WHERE budget > 1000)

SELECT name FROM employees e WHERE EXISTS (SELECT 1 FROM departments d WHERE d.id = e.dept_id)

SELECT name FROM customers UNION SELECT name FROM employees

SELECT name FROM customers UNION ALL SELECT name FROM employees

WITH big AS (SELECT customer_id, SUM(total) AS s FROM orders GROUP BY customer_id) SELECT c.name, b.s FROM customers c JOIN big b ON b.customer_id = c.id

WITH RECURSIVE cnt(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM cnt WHERE x < 10) SELECT x FROM cnt

SELECT name, RANK() OVER (ORDER BY salary DESC) FROM employees

SELECT name, ROW_NUMBER() OVER (PARTITION BY dept_id ORDER BY salary DESC) AS rn FROM employees

SELECT c.name, o.total FROM customers c LEFT JOIN orders o ON o.customer_id = c.id

SELECT c.name FROM customers c LEFT JOIN orders o ON o.customer_id = c.id WHERE o.id IS NULL

SELECT total
/
2 FROM orders

SELECT name FROM employees WHERE hired BETWEEN '2020-01-01' AND '2020-12-31'

SELECT name FROM employees ORDER BY hired DESC LIMIT 10 OFFSET 5

SELECT name FROM employees ORDER BY hired DESC LIMIT 5, 10

SELECT status, COUNT(*) FROM orders GROUP BY status HAVING COUNT(*) >= 2

SELECT e.name, m.name FROM employees e JOIN employees m ON e.manager_id = m.id

SELECT STR_TO_DATE('01/02/2024', '%d/%m/%Y')

SELECT DAYNAME(created_at), MONTHNAME(created_at), WEEKDAY(created_at), QUARTER(created_at) FROM orders

SELECT LAST_DAY(created_at) FROM orders

SELECT FIELD(status, 'new', 'paid', 'shipped') FROM orders

SELECT LPAD(id, 5, '0') FROM orders

SELECT FORMAT(total, 2) FROM orders

SELECT name FROM employees WHERE email IS NOT NULL AND email <> ''

SELECT MAX(total) - MIN(total) FROM orders

SELECT COALESCE(note, ''), NULLIF(status, '') FROM orders

SELECT LEFT(name, 2), RIGHT(name, 2), REVERSE(name), LOCATE('a', name) FROM employees

SELECT UNIX_TIMESTAMP(created_at), FROM_UNIXTIME(0) FROM orders

SELECT total % 10, MOD(total, 10), FLOOR(total / 10) FROM orders

SELECT name FROM customers WHERE city IN ('Paris', 'Lyon') AND country = 'France'

SELECT JSON_EXTRACT(note, '$.k') FROM orders
