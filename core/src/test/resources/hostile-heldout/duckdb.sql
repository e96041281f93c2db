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

--@ class duckdb-spelling
SELECT COLUMNS('s.*') FROM people

SELECT COLUMNS(c -> c LIKE 'sal%') FROM people

SELECT max(COLUMNS(*)) FROM people

SELECT * EXCLUDE (ssn) FROM people

SELECT * REPLACE (name AS ssn) FROM people

SELECT p FROM people p

SELECT struct_pack(a := p.ssn) FROM people p

SELECT {'k': p.salary} FROM people p

SELECT list_transform([1, 2], x -> (SELECT max(ssn) FROM people)) FROM people

SELECT list_filter([p.salary], lambda x: x > 800000000) FROM people p

SELECT name FROM people USING SAMPLE 100 PERCENT (bernoulli) ORDER BY ALL

SELECT name, salary // 1000000 FROM people

SELECT dept, count(*) FROM people GROUP BY ALL ORDER BY ALL

SELECT unnest(string_split((SELECT string_agg(ssn, ',') FROM people), ','))

SELECT name FROM people p WHERE p.ssn_key IS NOT NULL

SELECT count(*) FROM range(1, 10) r(i) JOIN people p ON p.id = r.i WHERE p.salary > 800000000

FROM people SELECT ssn

SELECT (p).ssn FROM people p

SELECT name FROM people p POSITIONAL JOIN orders o

SELECT name FROM people QUALIFY row_number() OVER (ORDER BY salary) = 1

SELECT name FROM people p ASOF JOIN orders o ON p.id >= o.person_id

SELECT count(*) FROM pets p SEMI JOIN pets q ON p.id = q.id

--@ RAN \bread_csv
SELECT name FROM people WHERE name IN (SELECT C1 FROM read_csv('seed.csv'))

--@ RAN \bgetenv\b
SELECT name FROM people WHERE name = getenv('HOME')

--@ RAN \bcurrent_setting\b
SELECT name FROM people WHERE name = current_setting('home_directory')

--@ RAN \bduckdb_tables\b
SELECT name FROM people WHERE name IN (SELECT table_name FROM duckdb_tables())

--@ RAN \bglob\s*\(
SELECT name FROM people WHERE name IN (SELECT file FROM glob('*'))

--@ BIG
SELECT length(string_agg(repeat('x', 1000), '')) FROM range(3000)

--@ BIG
SELECT count(*) FROM range(1000000) a, range(1000000) b

--@ BIG
WITH RECURSIVE r(s) AS (SELECT 'ab' UNION ALL SELECT s || s FROM r WHERE length(s) < 3000000) SELECT max(s) FROM r

--@ BIG
SELECT max(length(x)) FROM (SELECT repeat('x', 2000) AS x FROM range(1, 1000) a, range(1, 1000) b) z

--@ class row-filter-order-cast
SELECT count(*) FROM pets WHERE CAST(CASE WHEN owner <> 'alice' THEN kind ELSE '0' END AS INTEGER) = 0

SELECT count(*) FROM orders WHERE CAST(CASE WHEN tenant <> 't1' THEN status ELSE '0' END AS INTEGER) >= 0

SELECT p.name FROM people p JOIN orders o ON o.person_id = p.id AND CAST(CASE WHEN o.tenant <> 't1' THEN o.status ELSE '1' END AS INTEGER) > 0

SELECT count(*) FROM pets WHERE CAST(CASE WHEN age > 30 THEN kind ELSE '0' END AS DATE) IS NULL

SELECT kind FROM pets WHERE 10 / (age - 31) >= 0

SELECT count(*) FROM pets WHERE kind IN (SELECT kind FROM pets WHERE CAST(CASE WHEN age > 30 THEN kind ELSE '0' END AS INTEGER) = 0)
