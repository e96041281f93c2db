SELECT name FROM employees WHERE dept_id = 3 ORDER BY name

SELECT count(*) FROM employees

SELECT e.name, d.name FROM employees AS e JOIN departments AS d ON e.dept_id = d.id

SELECT d.name, count(*) AS n FROM employees e JOIN departments d ON e.dept_id = d.id GROUP BY d.name HAVING count(*) > 2 ORDER BY n DESC LIMIT 5

SELECT name, salary FROM employees ORDER BY salary DESC LIMIT 1

SELECT name FROM employees WHERE salary > (SELECT avg(salary) FROM employees)

SELECT strftime('%Y', hired) AS year, count(*) FROM employees GROUP BY year

SELECT strftime('%Y-%m', created_at) AS month, sum(total) FROM orders GROUP BY 1 ORDER BY 1

SELECT date(created_at), total FROM orders WHERE created_at >= date('now', '-30 days')

SELECT julianday('now') - julianday(hired) AS days FROM employees

SELECT name FROM customers WHERE name LIKE 'A%' COLLATE NOCASE

SELECT name FROM customers WHERE glob('A*', name)

SELECT ifnull(city, 'unknown') FROM customers

SELECT iif(total > 100, 'big', 'small') FROM orders

SELECT CASE WHEN total > 100 THEN 'big' WHEN total > 10 THEN 'medium' ELSE 'small' END AS size FROM orders

SELECT group_concat(name, ', ') FROM employees

SELECT substr(name, 1, 3), length(name), upper(name), lower(name), trim(name) FROM employees

SELECT round(avg(total), 2) FROM orders

SELECT CAST(total AS INTEGER) FROM orders

SELECT typeof(total) FROM orders

SELECT printf('%.2f', total) FROM orders

SELECT name FROM employees WHERE email IS NOT NULL AND email <> ''

SELECT DISTINCT city FROM customers ORDER BY city

SELECT city, count(DISTINCT id) FROM customers GROUP BY city

SELECT name FROM employees WHERE dept_id IN (SELECT id FROM departments WHERE budget > 1000)

SELECT name FROM employees e WHERE EXISTS (SELECT 1 FROM departments d WHERE d.id = e.dept_id)

SELECT name FROM employees WHERE dept_id NOT IN (SELECT id FROM departments)

SELECT name FROM customers UNION SELECT name FROM employees

SELECT name FROM customers INTERSECT SELECT name FROM employees

SELECT name FROM customers EXCEPT SELECT name FROM employees

WITH big AS (SELECT customer_id, sum(total) AS s FROM orders GROUP BY customer_id) SELECT c.name, b.s FROM customers c JOIN big b ON b.customer_id = c.id

WITH RECURSIVE cnt(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM cnt WHERE x < 10) SELECT x FROM cnt

SELECT name, rank() OVER (ORDER BY salary DESC) FROM employees

SELECT name, row_number() OVER (PARTITION BY dept_id ORDER BY salary DESC) AS rn FROM employees

SELECT name, sum(salary) OVER (PARTITION BY dept_id) FROM employees

SELECT name, lag(salary) OVER (ORDER BY hired) FROM employees

SELECT * FROM (SELECT name, row_number() OVER (ORDER BY salary DESC) AS rn FROM employees) WHERE rn <= 3

SELECT c.name, o.total FROM customers c LEFT JOIN orders o ON o.customer_id = c.id

SELECT c.name FROM customers c LEFT JOIN orders o ON o.customer_id = c.id WHERE o.id IS NULL

SELECT [name], [city] FROM [customers] WHERE [city] = 'Paris'

SELECT `name` FROM `customers`

SELECT "name" FROM "customers" WHERE "city" = 'Rome'

SELECT number, uuid FROM customers

SELECT c.number FROM customers c ORDER BY number

SELECT total
/
2 FROM orders

SELECT name FROM employees WHERE hired BETWEEN '2020-01-01' AND '2020-12-31'

SELECT name FROM employees WHERE name = 'O''Brien'

SELECT name FROM employees WHERE note = 'C:\temp'

SELECT count(*) FILTER (WHERE total > 100) FROM orders

SELECT min(total), max(total), avg(total), sum(total), total(total) FROM orders

SELECT abs(total), coalesce(note, ''), nullif(status, '') FROM orders

SELECT instr(email, '@') FROM employees

SELECT replace(email, '@', ' at ') FROM employees

SELECT name || ' (' || city || ')' FROM customers

SELECT unixepoch(created_at) FROM orders

SELECT timediff(created_at, '2024-01-01') FROM orders

SELECT name FROM employees ORDER BY hired DESC NULLS LAST LIMIT 10 OFFSET 5

SELECT status, count(*) FROM orders GROUP BY status HAVING count(*) >= 2

SELECT o.id FROM orders o WHERE o.total > 100 AND o.status IN ('paid', 'shipped')

SELECT name FROM employees WHERE manager_id IS NULL

SELECT e.name, m.name FROM employees e JOIN employees m ON e.manager_id = m.id

SELECT rowid, name FROM departments

SELECT json_extract(note, '$.k') FROM orders

SELECT note ->> '$.k' FROM orders

SELECT name FROM customers WHERE country = 'France' AND (city = 'Paris' OR city = 'Lyon')

SELECT count(*) FROM orders WHERE created_at > datetime('now', 'start of month')

SELECT max(total) - min(total) FROM orders
