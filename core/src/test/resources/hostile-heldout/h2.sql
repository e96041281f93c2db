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

--@ class h2-error-channel
SELECT count(*) FROM pets WHERE CAST(kind AS INT) = 0

SELECT count(*) FROM pets WHERE kind LIKE 'Z_X%' AND CAST(kind AS INT) = 0

SELECT count(*) FROM orders WHERE CAST(status AS INT) > 0

SELECT count(*) FROM pets WHERE CASE WHEN kind LIKE 'Z_X%' THEN CAST(kind AS INT) ELSE 0 END = 0

SELECT count(*) FROM pets WHERE CAST(kind AS DATE) IS NULL

--@ class h2-whole-row
SELECT ROW(p.*) FROM people p

SELECT ARRAY_AGG(p.ssn) FROM people p

SELECT CAST(ROW(p.id, p.ssn) AS VARCHAR) FROM people p

SELECT JSON_OBJECT('k': p.salary) FROM people p

SELECT name FROM people p WHERE (p.id, p.name) IN (SELECT id, ssn FROM people)

SELECT x FROM (SELECT * FROM people) t(a, b, c, d, e, f, x, y, z)

SELECT X FROM UNNEST((SELECT ARRAY_AGG(SSN) FROM PEOPLE)) U(X)

SELECT name FROM people p WHERE p._ROWID_ > 0

SELECT "SSN" FROM "PEOPLE"

SELECT P.SSN_KEY FROM PEOPLE P

--@ RAN \bfile_read\b
SELECT name FROM people WHERE name IN (SELECT FILE_READ('/etc/hostname'))

--@ RAN \bcsvread\b
SELECT count(*) FROM people WHERE name IN (SELECT C1 FROM CSVREAD('/etc/hostname'))

--@ RAN \bh2version\b
SELECT name FROM people WHERE name = (SELECT H2VERSION())

--@ RAN \bdatabase_path\b
SELECT name FROM people WHERE name = DATABASE_PATH()

--@ RAN \bdisk_space_used\b
SELECT name FROM people WHERE id = DISK_SPACE_USED('PEOPLE')

--@ RAN \bsession_id\b
SELECT name FROM people WHERE id = SESSION_ID()

--@ RAN \bsystem_range\b
SELECT count(*) FROM SYSTEM_RANGE(1, 2000000)

--@ BIG
SELECT LENGTH(LISTAGG(REPEAT('x', 1000), '')) FROM SYSTEM_RANGE(1, 3000)

--@ BIG
SELECT REPEAT(REPEAT(name, 1000), 1000) FROM people

--@ class row-filter-order-cast
SELECT count(*) FROM pets WHERE CAST(CASE WHEN owner <> 'alice' THEN kind ELSE '0' END AS INTEGER) = 0

SELECT count(*) FROM orders WHERE CAST(CASE WHEN tenant <> 't1' THEN status ELSE '0' END AS INTEGER) >= 0

SELECT p.name FROM people p JOIN orders o ON o.person_id = p.id AND CAST(CASE WHEN o.tenant <> 't1' THEN o.status ELSE '1' END AS INTEGER) > 0

SELECT count(*) FROM pets WHERE CAST(CASE WHEN age > 30 THEN kind ELSE '0' END AS DATE) IS NULL

SELECT kind FROM pets WHERE 10 / (age - 31) >= 0

SELECT count(*) FROM pets WHERE kind IN (SELECT kind FROM pets WHERE CAST(CASE WHEN age > 30 THEN kind ELSE '0' END AS INTEGER) = 0)
