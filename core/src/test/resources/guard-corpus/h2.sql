SELECT name FROM employees WHERE dept_id = 3 ORDER BY name

SELECT COUNT(*) FROM employees

SELECT e.name, d.name FROM employees AS e JOIN departments AS d ON e.dept_id = d.id

SELECT d.name, COUNT(*) AS n FROM employees e JOIN departments d ON e.dept_id = d.id GROUP BY d.name HAVING COUNT(*) > 2 ORDER BY n DESC LIMIT 5

SELECT YEAR(hired) AS y, COUNT(*) FROM employees GROUP BY YEAR(hired)

SELECT EXTRACT(YEAR FROM hired) FROM employees

SELECT MONTH(created_at), DAY_OF_MONTH(created_at), HOUR(created_at) FROM orders

SELECT FORMATDATETIME(created_at, 'yyyy-MM') AS ym, SUM(total) FROM orders GROUP BY FORMATDATETIME(created_at, 'yyyy-MM')

SELECT DATEDIFF('DAY', hired, CURRENT_DATE) FROM employees

SELECT DATEADD('DAY', 7, hired) FROM employees

SELECT TIMESTAMPDIFF(DAY, hired, CURRENT_DATE) FROM employees

SELECT PARSEDATETIME('2024-01-02', 'yyyy-MM-dd')

SELECT SUBSTRING(name, 1, 3), LENGTH(name), UPPER(name), LOWER(name), TRIM(name) FROM employees

SELECT SUBSTRING(name FROM 1 FOR 3) FROM employees

SELECT CONCAT(name, ' (', city, ')') FROM customers

SELECT name || ' ' || city FROM customers

SELECT LISTAGG(name, ', ') WITHIN GROUP (ORDER BY name) FROM employees

SELECT GROUP_CONCAT(name) FROM employees

SELECT STRING_AGG(name, ', ') FROM employees

SELECT IFNULL(city, 'unknown'), NVL(city, 'x'), COALESCE(city, 'y') FROM customers

SELECT CASEWHEN(total > 100, 'big', 'small') FROM orders

SELECT CASE WHEN total > 100 THEN 'big' ELSE 'small' END FROM orders

SELECT ROUND(AVG(total), 2) FROM orders

SELECT CAST(total AS INT) FROM orders

SELECT CAST(created_at AS DATE) FROM orders

SELECT "NAME" FROM "CUSTOMERS" WHERE "CITY" = 'Rome'

SELECT number, uuid FROM customers

SELECT name FROM employees WHERE name = 'O''Brien'

SELECT name FROM employees WHERE note = 'C:\temp'

SELECT name FROM customers WHERE name LIKE 'A%'

SELECT name FROM customers WHERE REGEXP_LIKE(name, '^A')

SELECT DISTINCT city FROM customers ORDER BY city

SELECT name FROM employees WHERE dept_id IN (SELECT id FROM departments WHERE budget > 1000)

SELECT name FROM employees e WHERE EXISTS (SELECT 1 FROM departments d WHERE d.id = e.dept_id)

SELECT name FROM customers UNION SELECT name FROM employees

SELECT name FROM customers INTERSECT SELECT name FROM employees

SELECT name FROM customers EXCEPT SELECT name FROM employees

WITH big AS (SELECT customer_id, SUM(total) AS s FROM orders GROUP BY customer_id) SELECT c.name, b.s FROM customers c JOIN big b ON b.customer_id = c.id

SELECT name, RANK() OVER (ORDER BY salary DESC) FROM employees

SELECT name, ROW_NUMBER() OVER (PARTITION BY dept_id ORDER BY salary DESC) AS rn FROM employees

SELECT name, SUM(salary) OVER (PARTITION BY dept_id) FROM employees

SELECT c.name, o.total FROM customers c LEFT JOIN orders o ON o.customer_id = c.id

SELECT c.name FROM customers c LEFT JOIN orders o ON o.customer_id = c.id WHERE o.id IS NULL

SELECT total
/
2 FROM orders

SELECT name FROM employees WHERE hired BETWEEN DATE '2020-01-01' AND DATE '2020-12-31'

SELECT name FROM employees ORDER BY hired DESC NULLS LAST LIMIT 10 OFFSET 5

SELECT name FROM employees ORDER BY salary DESC FETCH FIRST 3 ROWS ONLY

SELECT status, COUNT(*) FROM orders GROUP BY status HAVING COUNT(*) >= 2

SELECT e.name, m.name FROM employees e JOIN employees m ON e.manager_id = m.id

SELECT DAYNAME(created_at), MONTHNAME(created_at), QUARTER(created_at), WEEK(created_at) FROM orders

SELECT LPAD(CAST(id AS VARCHAR), 5, '0') FROM orders

SELECT name FROM employees WHERE email IS NOT NULL AND email <> ''

SELECT MAX(total) - MIN(total) FROM orders

SELECT NULLIF(status, '') FROM orders

SELECT LEFT(name, 2), RIGHT(name, 2), LOCATE('a', name) FROM employees

SELECT name FROM customers WHERE city IN ('Paris', 'Lyon') AND country = 'France'

SELECT id FROM orders WHERE id = ANY(ARRAY[1, 2, 3])

SELECT TO_CHAR(created_at, 'YYYY-MM') FROM orders

SELECT MEDIAN(total) FROM orders

SELECT COUNT(*) FILTER (WHERE total > 100) FROM orders

SELECT BOOL_AND(total > 0) FROM orders

SELECT ANY_VALUE(name) FROM employees GROUP BY dept_id

SELECT TRUNC(total), MOD(id, 3), POWER(2, 3), SQRT(16) FROM orders
