-- Held-out attacks every engine reads alike; each engine's own file follows them (HostileHeldOutTest).
--@ class row-filter-order
SELECT count(*) FROM pets WHERE CASE WHEN age = 31 THEN (SELECT 1 UNION ALL SELECT 2) ELSE 0 END = 0

SELECT count(*) FROM pets p WHERE CASE WHEN p.owner = 'bob' THEN (SELECT 1 UNION ALL SELECT 2) ELSE 0 END = 0

SELECT count(*) FROM orders o WHERE CASE WHEN o.amount > 9000 THEN (SELECT 1 UNION ALL SELECT 2) ELSE 0 END = 0

SELECT p.name FROM people p JOIN pets q ON q.age = CASE WHEN q.age = 32 THEN (SELECT 1 UNION ALL SELECT 2) ELSE q.age END WHERE p.id = 1

SELECT count(*) FROM pets WHERE age > 0 AND CASE WHEN age = 31 THEN (SELECT 1 UNION ALL SELECT 2) ELSE 1 END = 1

SELECT kind FROM pets WHERE kind IN (SELECT kind FROM pets WHERE owner <> 'alice')

--@ class row-filter-subquery
SELECT (SELECT count(*) FROM pets) AS n

SELECT kind FROM pets WHERE EXISTS (SELECT 1 FROM pets q WHERE q.owner = 'carl')

WITH all_pets AS (SELECT * FROM pets) SELECT count(*) FROM all_pets

SELECT count(*) FROM (SELECT kind FROM pets UNION ALL SELECT kind FROM pets) u

SELECT a.kind FROM pets a LEFT JOIN pets b ON b.id = a.id + 100 WHERE b.id IS NULL

SELECT max(age) FROM pets

SELECT count(*) FROM orders WHERE tenant <> 't1'

SELECT count(*) FROM orders o1 JOIN orders o2 ON o1.id = o2.id

SELECT sum(amount) FROM orders

SELECT status FROM orders ORDER BY amount DESC LIMIT 1

WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < (SELECT count(*) FROM pets)) SELECT max(n) FROM r

SELECT kind FROM pets EXCEPT SELECT kind FROM pets WHERE owner = 'alice'

--@ class denied-indirect
WITH c(a, b) AS (SELECT name, ssn FROM people) SELECT b FROM c

SELECT x FROM (SELECT ssn FROM people) t(x)

SELECT name FROM people WHERE id IN (SELECT id FROM people WHERE salary > 800000000)

SELECT name FROM people p WHERE EXISTS (SELECT 1 FROM people q WHERE q.id = p.id AND q.salary > 800000000)

SELECT name FROM people ORDER BY 7 LIMIT 1

SELECT name FROM people GROUP BY name, salary ORDER BY salary DESC LIMIT 1

SELECT name FROM people NATURAL JOIN (SELECT 'Z-1001' AS ssn) x

SELECT name FROM people JOIN (SELECT 'Z-1001' AS ssn) x USING (ssn)

SELECT count(*) FROM people WHERE ssn_key LIKE 'zqxa%'

SELECT max(ssn_key) FROM people

SELECT name FROM people WHERE score IS DISTINCT FROM salary

SELECT name, rank() OVER (ORDER BY salary) FROM people

SELECT name, first_value(name) OVER (PARTITION BY dept ORDER BY salary DESC) FROM people

SELECT name FROM people UNION SELECT ssn FROM people

SELECT a FROM (SELECT name AS a FROM people UNION ALL SELECT card FROM orders) u

SELECT * FROM (SELECT 1 AS k) z LEFT JOIN people p ON p.ssn LIKE 'Z_XA%' AND p.id = 1

SELECT count(*) FROM people GROUP BY salary > 800000000

SELECT name FROM people HAVING max(salary) > 0

SELECT name FROM people p WHERE p.id = (SELECT id FROM people ORDER BY salary LIMIT 1)

SELECT count(*) FROM (SELECT DISTINCT card FROM orders) d

SELECT status FROM orders WHERE card IS NOT NULL

--@ class forbidden-table
SELECT count(*) FROM secrets

SELECT (SELECT max(code) FROM secrets) AS c

SELECT name FROM people WHERE id IN (SELECT id FROM secrets)
