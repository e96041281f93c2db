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

SELECT salary, COUNT(*) FROM people GROUP BY salary DESC

SELECT dept FROM people GROUP BY dept DESC, ssn
