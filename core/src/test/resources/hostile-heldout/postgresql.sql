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

--@ class pg-whole-row
SELECT name FROM people p WHERE (p.id, p.name) IN (SELECT q.id, q.ssn FROM people q)

SELECT (p).ssn FROM people p

SELECT (p.*).salary FROM people p

SELECT name FROM people p ORDER BY p LIMIT 3

SELECT count(DISTINCT p) FROM people p

SELECT name FROM people p WHERE p IS NOT NULL

SELECT hstore(p) -> 'ssn' FROM people p

SELECT jsonb_path_query(to_jsonb(p), '$.ssn') FROM people p

SELECT name FROM people p WHERE p.score < ALL (SELECT q.salary FROM people q WHERE q.id = p.id)

SELECT name FROM people p WHERE p.name = ANY (SELECT q.ssn FROM people q WHERE q.dept = p.dept)

SELECT name FROM people p WHERE ROW(p.id, p.score) < ROW(1, (SELECT max(salary) FROM people))

SELECT name FROM people p WHERE p.id IN (SELECT q.id FROM people q WHERE q.ctid = p.ctid)

SELECT name FROM people p WHERE p.dept IN (SELECT q.dept FROM people q WHERE q.xmin::text <> '')

SELECT pg_catalog.upper(ssn) FROM people

SELECT name FROM people p WHERE p.name IN (SELECT pg_catalog.current_setting('is_superuser'))

SELECT p.ssn_key FROM people p

SELECT string_agg(x, ',') FROM (SELECT ssn AS x FROM people) z

SELECT GROUPING(salary) FROM people GROUP BY ROLLUP (salary)

SELECT name FROM people, LATERAL (SELECT salary AS s) l WHERE l.s > 800000000

SELECT v FROM (VALUES ((SELECT max(ssn) FROM people))) t(v)

SELECT ARRAY(SELECT ssn FROM people)

SELECT row(p.ssn)::text FROM people p

--@ RAN \bpg_read_file\b
SELECT name FROM people WHERE name IN (SELECT pg_catalog.pg_read_file('/etc/hostname'))

--@ RAN \bquery_to_xml\b
SELECT name FROM people p WHERE p.name = ANY (SELECT query_to_xml('select * from secrets', true, true, '')::text)

--@ RAN \bpg_sleep\b
SELECT name FROM people WHERE id IN (SELECT 1 FROM pg_sleep(0))

--@ RAN \bset_config\b
SELECT name FROM people p WHERE p.dept IN (SELECT set_config('search_path', 'public', false))

--@ RAN \bcurrent_setting\b
SELECT name FROM people p WHERE p.id = (SELECT length(current_setting('data_directory')))

--@ RAN \bto_regclass\b
SELECT name FROM people p WHERE p.id IN (SELECT to_regclass('secrets')::oid::int)

--@ BIG
SELECT length(string_agg(repeat('x', 1000), '')) FROM generate_series(1, 3000)

--@ BIG
SELECT string_agg(x, '') FROM (SELECT repeat(name, 500) AS x FROM people, generate_series(1, 300) g) z

--@ BIG
WITH RECURSIVE r(s) AS (SELECT 'ab'::text UNION ALL SELECT s || s FROM r WHERE length(s) < 3000000) SELECT max(s) FROM r

--@ class row-filter-order-pg
SELECT count(*) FROM pets WHERE kind::int = 0

SELECT count(*) FROM orders WHERE status::int > 0 AND tenant = 't1'

--@ class row-filter-order-cast
SELECT count(*) FROM pets WHERE CAST(CASE WHEN owner <> 'alice' THEN kind ELSE '0' END AS INTEGER) = 0

SELECT count(*) FROM orders WHERE CAST(CASE WHEN tenant <> 't1' THEN status ELSE '0' END AS INTEGER) >= 0

SELECT p.name FROM people p JOIN orders o ON o.person_id = p.id AND CAST(CASE WHEN o.tenant <> 't1' THEN o.status ELSE '1' END AS INTEGER) > 0

SELECT count(*) FROM pets WHERE CAST(CASE WHEN age > 30 THEN kind ELSE '0' END AS DATE) IS NULL

SELECT kind FROM pets WHERE 10 / (age - 31) >= 0

SELECT count(*) FROM pets WHERE kind IN (SELECT kind FROM pets WHERE CAST(CASE WHEN age > 30 THEN kind ELSE '0' END AS INTEGER) = 0)
