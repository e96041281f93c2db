SELECT name FROM employees WHERE dept_id = 3 ORDER BY name

SELECT count(*) FROM employees

SELECT e.name, d.name FROM employees AS e JOIN departments AS d ON e.dept_id = d.id

SELECT d.name, count(*) AS n FROM employees e JOIN departments d ON e.dept_id = d.id GROUP BY d.name HAVING count(*) > 2 ORDER BY n DESC LIMIT 5

SELECT EXTRACT(YEAR FROM hired) AS year, count(*) FROM employees GROUP BY 1 ORDER BY 1

SELECT date_trunc('month', created_at) AS month, sum(total) FROM orders GROUP BY 1 ORDER BY 1

SELECT to_char(created_at, 'YYYY-MM') FROM orders

SELECT created_at::date, total::numeric(10, 2) FROM orders

SELECT CAST(total AS integer) FROM orders

SELECT name FROM customers WHERE name ILIKE 'a%'

SELECT name FROM customers WHERE name ~ '^A'

SELECT name FROM customers WHERE name ~* 'an'

SELECT string_agg(name, ', ' ORDER BY name) FROM employees

SELECT array_agg(name) FROM employees

SELECT name FROM employees WHERE id = ANY(ARRAY[1, 2, 3])

SELECT name FROM employees WHERE dept_id = ANY(SELECT id FROM departments WHERE budget > 1000)

SELECT name FROM employees WHERE salary > ALL(SELECT salary FROM employees WHERE dept_id = 2)

SELECT SUBSTRING(name FROM 1 FOR 3) FROM employees

SELECT POSITION('@' IN email) FROM employees

SELECT split_part(email, '@', 2) AS domain, count(*) FROM employees GROUP BY 1

SELECT coalesce(city, 'unknown') FROM customers

SELECT CASE WHEN total > 100 THEN 'big' ELSE 'small' END FROM orders

SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY total) FROM orders

SELECT count(*) FILTER (WHERE total > 100) FROM orders

SELECT DISTINCT ON (customer_id) customer_id, total FROM orders ORDER BY customer_id, created_at DESC

SELECT name, rank() OVER (ORDER BY salary DESC) FROM employees

SELECT name, row_number() OVER (PARTITION BY dept_id ORDER BY salary DESC) AS rn FROM employees

SELECT name, avg(salary) OVER w FROM employees WINDOW w AS (PARTITION BY dept_id)

SELECT name, sum(total) OVER (ORDER BY created_at ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM orders JOIN customers ON customers.id = orders.customer_id

WITH big AS (SELECT customer_id, sum(total) AS s FROM orders GROUP BY customer_id) SELECT c.name, b.s FROM customers c JOIN big b ON b.customer_id = c.id

WITH RECURSIVE cnt(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM cnt WHERE x < 10) SELECT x FROM cnt

SELECT name FROM customers UNION ALL SELECT name FROM employees

SELECT name FROM customers INTERSECT SELECT name FROM employees

SELECT name FROM customers EXCEPT SELECT name FROM employees

SELECT c.name, o.total FROM customers c LEFT JOIN orders o ON o.customer_id = c.id

SELECT c.name FROM customers c FULL OUTER JOIN orders o ON o.customer_id = c.id

SELECT c.name FROM customers c CROSS JOIN departments d

SELECT "name" FROM "customers" WHERE "city" = 'Rome'

SELECT number, uuid FROM customers

SELECT total
/
2 FROM orders

SELECT name FROM employees WHERE hired BETWEEN '2020-01-01' AND '2020-12-31'

SELECT name FROM employees WHERE hired >= DATE '2020-01-01'

SELECT name FROM employees WHERE hired > now() - INTERVAL '30 days'

SELECT age(now(), hired) FROM employees

SELECT name FROM employees WHERE name = 'O''Brien'

SELECT name FROM employees WHERE manager_id IS NULL

SELECT name FROM employees WHERE email IS NOT DISTINCT FROM NULL

SELECT round(avg(total)::numeric, 2) FROM orders

SELECT greatest(total, 10), least(total, 1000) FROM orders

SELECT length(name), upper(name), lower(name), trim(name), left(name, 2), right(name, 2) FROM employees

SELECT name || ' (' || city || ')' FROM customers

SELECT concat_ws(' ', name, city) FROM customers

SELECT name FROM employees ORDER BY hired DESC NULLS LAST LIMIT 10 OFFSET 5

SELECT name FROM employees ORDER BY salary DESC FETCH FIRST 3 ROWS ONLY

SELECT status, count(*) FROM orders GROUP BY status HAVING count(*) >= 2

SELECT e.name, m.name FROM employees e JOIN employees m ON e.manager_id = m.id

SELECT e.name FROM employees e WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = e.id)

SELECT bool_and(total > 0) FROM orders

SELECT date_part('dow', created_at) FROM orders

SELECT to_char(hired, 'Mon YYYY') FROM employees

SELECT make_date(2024, 1, 1)

SELECT name FROM customers WHERE city IN ('Paris', 'Lyon') AND country = 'France'

SELECT count(*)::float / NULLIF((SELECT count(*) FROM customers), 0) FROM orders

SELECT name, salary, salary - avg(salary) OVER () AS diff FROM employees

SELECT mode() WITHIN GROUP (ORDER BY status) FROM orders
