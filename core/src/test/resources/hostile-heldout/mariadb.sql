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

--@ class mariadb-spelling
SELECT SQL_NO_CACHE name FROM people p WHERE p.salary > 800000000

SELECT STRAIGHT_JOIN p.name FROM people p USE INDEX (idx_people_ssn) WHERE p.ssn LIKE 'Z_XA%'

SELECT name FROM people FORCE INDEX (idx_people_ssn) ORDER BY ssn LIMIT 1

SELECT HIGH_PRIORITY name FROM people WHERE id = 1 UNION SELECT code FROM secrets

SELECT name FROM people WHERE ROW(id, ssn) = ROW(1, 'Z-1001')

SELECT name FROM people WHERE (id, name) IN (SELECT id, ssn FROM people)

SELECT GROUP_CONCAT(kind ORDER BY kind SEPARATOR ',') FROM pets

SELECT name FROM people WHERE name = 'ann' || ssn LIKE 'Z_XA%'

SELECT JSON_OBJECT('a', p.ssn) FROM people p

SELECT name FROM people WHERE MATCH (name) AGAINST ('ann')

SELECT name FROM people WITH ROLLUP

SELECT count(*) FROM people GROUP BY dept WITH ROLLUP HAVING max(salary) > 0

--@ class mariadb-error-channel
SELECT EXTRACTVALUE(1, CONCAT(0x7e, (SELECT kind FROM pets WHERE kind LIKE 'Z_X%' LIMIT 1)))

SELECT count(*) FROM pets WHERE EXTRACTVALUE(1, CONCAT(0x7e, kind)) IS NULL

SELECT count(*) FROM pets WHERE UPDATEXML(1, CONCAT(0x7e, kind), 1) IS NULL

SELECT count(*) FROM orders WHERE CASE WHEN status LIKE 'Z_XA%' THEN EXTRACTVALUE(1, CONCAT(0x7e, status)) END IS NULL

SELECT count(*) FROM pets WHERE EXP(CASE WHEN owner = 'bob' THEN 1000 ELSE 1 END) > 0

SELECT count(*) FROM pets WHERE JSON_EXTRACT(CASE WHEN kind LIKE 'Z_X%' THEN kind ELSE '1' END, '$') IS NOT NULL

SELECT count(*) FROM pets WHERE NAME_CONST(kind, 1) = 1

--@ RAN \bload_file\b
SELECT name FROM people WHERE name IN (SELECT LOAD_FILE('/etc/hostname'))

--@ RAN \bbenchmark\b
SELECT name FROM people WHERE id = (SELECT BENCHMARK(10, 1))

--@ RAN @@
SELECT name FROM people WHERE id = @@port

--@ RAN \bget_lock\b
SELECT name FROM people WHERE id IN (SELECT GET_LOCK('x', 0))

--@ RAN \bdatabase\s*\(
SELECT name FROM people WHERE name = (SELECT DATABASE())

--@ BIG
SELECT LENGTH(GROUP_CONCAT(REPEAT('x', 1000) SEPARATOR '')) FROM people a, people b, people c

--@ BIG
WITH RECURSIVE r(s) AS (SELECT CAST('ab' AS CHAR(4000000)) UNION ALL SELECT CONCAT(s, s) FROM r WHERE LENGTH(s) < 3000000) SELECT max(s) FROM r

--@ class row-filter-order-cast
SELECT count(*) FROM pets WHERE CAST(CASE WHEN owner <> 'alice' THEN kind ELSE '0' END AS INTEGER) = 0

SELECT count(*) FROM orders WHERE CAST(CASE WHEN tenant <> 't1' THEN status ELSE '0' END AS INTEGER) >= 0

SELECT p.name FROM people p JOIN orders o ON o.person_id = p.id AND CAST(CASE WHEN o.tenant <> 't1' THEN o.status ELSE '1' END AS INTEGER) > 0

SELECT count(*) FROM pets WHERE CAST(CASE WHEN age > 30 THEN kind ELSE '0' END AS DATE) IS NULL

SELECT kind FROM pets WHERE 10 / (age - 31) >= 0

SELECT count(*) FROM pets WHERE kind IN (SELECT kind FROM pets WHERE CAST(CASE WHEN age > 30 THEN kind ELSE '0' END AS INTEGER) = 0)
