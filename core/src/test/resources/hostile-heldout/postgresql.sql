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

SELECT name FROM people WHERE jsonb_build_object('s', ssn) @> '{"s": "ZQX1"}'

SELECT name FROM people WHERE ARRAY[salary] <@ ARRAY[1, 2, 3]
