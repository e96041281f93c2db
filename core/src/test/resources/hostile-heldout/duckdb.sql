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

SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY salary) FROM people

SELECT unnest(range(3)) AS r, ssn FROM people

SELECT q.info.s FROM (SELECT {'s': ssn} AS info FROM people) AS q

SELECT p.salary.x FROM people p
