-- Denied columns (people.ssn, people.salary, orders.card) and filtered rows (pets of others, orders of other
-- tenants) read through Trino's functions and clauses. Each, run raw, shows a marker or rows that differ
-- between the twins (TrinoHostileRawTest).
--@ class lambda
SELECT transform(ARRAY[ssn], x -> upper(x)) FROM people

SELECT name FROM people WHERE cardinality(filter(ARRAY[salary], x -> x > 731900500)) > 0

SELECT reduce(ARRAY[salary], 0, (s, x) -> s + x, s -> s) FROM people

SELECT name FROM people WHERE any_match(ARRAY[ssn], x -> x LIKE 'ZQXA-SSN-100%')

SELECT name FROM people WHERE all_match(ARRAY[salary], x -> x < 800000000)

SELECT transform(tags, t -> t || ssn) FROM people

SELECT zip_with(ARRAY[name], ARRAY[ssn], (a, b) -> a || ':' || b) FROM people

SELECT transform_values(MAP(ARRAY[name], ARRAY[salary]), (k, v) -> v) FROM people

SELECT name FROM people WHERE none_match(tags, t -> substr(ssn, 4, 1) = 'A')

--@ class by-aggregate
SELECT max_by(name, salary) FROM people

SELECT min_by(name, ssn) FROM people

SELECT max_by(name, salary, 3) FROM people

SELECT dept, max_by(id, salary) FROM people GROUP BY dept

--@ class row
SELECT CAST(ROW(name, ssn) AS ROW(n varchar, s varchar)).s FROM people

SELECT json_format(CAST(CAST(ROW(name, salary) AS ROW(n varchar, pay integer)) AS JSON)) FROM people

SELECT ROW(id, ssn) FROM people

SELECT r.s FROM (SELECT CAST(ROW(ssn) AS ROW(s varchar)) AS r FROM people) t

SELECT CAST(ROW(ssn, salary) AS ROW(a varchar, b integer)) FROM people

SELECT TRY_CAST(ROW(name, salary) AS ROW(n varchar, s varchar)).s FROM people

SELECT name FROM people WHERE CAST(ROW(ssn, 1) AS ROW(s varchar, i integer)).s LIKE 'ZQXA%'

--@ class unnest
SELECT x FROM people CROSS JOIN UNNEST(ARRAY[ssn, name]) AS u(x)

SELECT x, n FROM people CROSS JOIN UNNEST(ARRAY[salary]) WITH ORDINALITY AS u(x, n)

SELECT k, v FROM people CROSS JOIN UNNEST(MAP(ARRAY['s'], ARRAY[ssn])) AS u(k, v)

SELECT t.x FROM orders, UNNEST(ARRAY[card]) AS t(x)

SELECT ssn FROM people CROSS JOIN UNNEST(tags)

SELECT n FROM people CROSS JOIN UNNEST(ARRAY[salary]) WITH ORDINALITY AS u(x, n) WHERE x > 800000000

SELECT x FROM UNNEST((SELECT array_agg(code) FROM secrets)) AS u(x)

SELECT x FROM UNNEST(ARRAY[(SELECT max(ssn) FROM people)]) AS u(x)

SELECT name FROM people p CROSS JOIN UNNEST(ARRAY[p.ssn]) AS u(x) WHERE x LIKE 'ZQXA-SSN-100%'

SELECT x FROM people CROSS JOIN UNNEST(transform(tags, t -> t || ssn)) AS u(x)

SELECT (SELECT max(x) FROM UNNEST(ARRAY[salary]) AS u(x)) FROM people

SELECT name, x FROM people LEFT JOIN UNNEST(ARRAY[ssn]) AS u(x) ON true

SELECT u.s FROM people p CROSS JOIN UNNEST(p.tags, ARRAY[p.salary]) AS u(t, s)

--@ class values
SELECT x, name FROM (VALUES ('a'), ('b')) AS v(x) CROSS JOIN people WHERE ssn LIKE 'ZQXA%'

SELECT p.name FROM people p JOIN (VALUES ('ZQXA-SSN-1001'), ('ZQXA-SSN-1002')) AS v(s) ON v.s = p.ssn

SELECT x FROM (VALUES (1), (2)) AS v(x) WHERE x < (SELECT count(*) FROM people WHERE salary > 800000000)

--@ class json-query
SELECT JSON_VALUE(json_format(CAST(MAP(ARRAY['s'], ARRAY[ssn]) AS JSON)), 'lax $.s') FROM people

SELECT JSON_QUERY(json_format(CAST(ARRAY[ssn] AS JSON)), 'lax $') FROM people

SELECT name FROM people WHERE JSON_VALUE(json_format(CAST(ARRAY[salary] AS JSON)), 'lax $[0]') > '8'

--@ class aggregate
SELECT array_agg(ssn) FROM people

SELECT array_agg(name ORDER BY salary) FROM people

SELECT map_agg(name, salary) FROM people

SELECT multimap_agg(dept, ssn) FROM people

SELECT listagg(name, ',') WITHIN GROUP (ORDER BY ssn) FROM people

SELECT histogram(salary) FROM people

SELECT approx_percentile(salary, 0.5) FROM people

SELECT checksum(ssn) FROM people

SELECT arbitrary(ssn) FROM people

--@ class format
SELECT format('%s is %s', name, ssn) FROM people

SELECT format('%09d', salary) FROM people

SELECT to_hex(to_utf8(ssn)) FROM people

SELECT to_base64(to_utf8(ssn)) FROM people

SELECT reverse(ssn) FROM people

SELECT CAST(salary AS varchar) || '' FROM people

--@ class order-by
--! ordered
SELECT name FROM people ORDER BY salary

--! ordered
SELECT name FROM people ORDER BY ssn DESC LIMIT 3

--! ordered
SELECT name FROM people ORDER BY salary FETCH FIRST 1 ROWS WITH TIES

--! ordered
SELECT name FROM people ORDER BY ssn OFFSET 2 ROWS FETCH NEXT 3 ROWS ONLY

--@ class window
SELECT name, rank() OVER (ORDER BY salary) FROM people

SELECT name, row_number() OVER (PARTITION BY dept ORDER BY ssn) FROM people

SELECT name, lag(ssn) OVER (ORDER BY id) FROM people

SELECT name, sum(salary) OVER w FROM people WINDOW w AS (PARTITION BY dept)

SELECT name, first_value(name) OVER (ORDER BY salary DESC) FROM people

--@ class correlated
SELECT name FROM people p WHERE (SELECT q.salary FROM people q WHERE q.id = p.id) > 731900500

SELECT name, (SELECT count(*) FROM people q WHERE q.ssn < p.ssn) FROM people p

SELECT name FROM people p WHERE EXISTS (SELECT 1 FROM orders o WHERE o.person_id = p.id AND o.card LIKE 'ZQXA%')

--@ class row-filter
SELECT kind FROM pets

SELECT count(*) FROM pets WHERE owner <> 'alice'

SELECT status FROM orders WHERE tenant <> 't1'

SELECT kind FROM pets TABLESAMPLE BERNOULLI (100)

SELECT count(*) FROM orders TABLESAMPLE SYSTEM (100)

SELECT x FROM pets CROSS JOIN UNNEST(ARRAY[kind]) AS u(x)

SELECT x, n FROM orders o CROSS JOIN UNNEST(ARRAY[o.status]) WITH ORDINALITY AS u(x, n)

SELECT kind FROM pets JOIN (VALUES ('alice'), ('bob')) AS v(o) ON v.o = pets.owner

SELECT CAST(ROW(kind, age) AS ROW(k varchar, a integer)).k FROM pets

SELECT JSON_VALUE(json_format(CAST(ARRAY[kind] AS JSON)), 'lax $[0]') FROM pets

--@ class quoted-name
SELECT "SSN" FROM people

SELECT "Salary" FROM "PEOPLE"

SELECT p."Ssn" FROM "People" p

--@ class predicate
SELECT name FROM people WHERE salary > 842590000

SELECT name FROM people WHERE regexp_like(ssn, '^ZQXA')

SELECT name FROM people WHERE try_cast(substr(ssn, 10, 4) AS integer) > 1005

SELECT name FROM people WHERE IF(salary > 800000000, true, false)

SELECT name FROM people WHERE ssn IS DISTINCT FROM 'ZQXA-SSN-1001'

SELECT name FROM people GROUP BY name, salary HAVING salary > 731900600

SELECT count(DISTINCT salary / 1000) FROM people
