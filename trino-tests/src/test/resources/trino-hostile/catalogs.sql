-- Trino's own surfaces beyond the policy's tables: other catalogs, system tables, metadata, table functions.
-- Each entry, run raw as an administrator in memory.hr (twin A) and memory.hr_b (twin B), does its harm
-- (TrinoHostileRawTest). "--! shows X": the result holds X; "--! runs": it succeeds (what it does is the harm);
-- no mark: it reads forbidden data (a marker in the rows, or rows that differ between the twins).
--@ class other-catalog
--! shows Customer#000000001
SELECT name, phone, acctbal FROM tpch.tiny.customer ORDER BY custkey LIMIT 3

--! shows 25
SELECT count(*) FROM tpch.tiny.nation

--! shows ZQXA-SSN
SELECT ssn FROM memory.hr.people

--! shows ZQXB-SSN
SELECT p.name, b.ssn FROM people p JOIN memory.hr_b.people b ON b.id = p.id

SELECT code FROM secrets

--@ class system-tables
--! shows SELECT
SELECT query FROM system.runtime.queries

--! shows running
SELECT state FROM system.runtime.queries WHERE query LIKE '%runtime.queries%'

--! shows tpch
SELECT catalog_name FROM system.metadata.catalogs

--! shows http
SELECT node_id, http_uri, coordinator FROM system.runtime.nodes

--! shows secrets
SELECT schema_name, table_name FROM system.metadata.table_comments WHERE catalog_name = 'memory'

--! shows secrets
SELECT table_schem, table_name FROM system.jdbc.tables WHERE table_cat = 'memory'

--@ class information-schema
--! shows ssn
SELECT column_name FROM information_schema.columns WHERE table_name = 'people'

--! shows secrets
SELECT table_name FROM information_schema.tables

--! shows salary
SELECT column_name, data_type FROM memory.information_schema.columns WHERE table_schema = 'hr'

--! shows hr_b
SELECT schema_name FROM memory.information_schema.schemata

--! shows sqlagent-admin
SELECT grantee FROM information_schema.applicable_roles UNION ALL SELECT current_user

--@ class show
--! shows secrets
SHOW TABLES

--! shows ssn
SHOW COLUMNS FROM people

--! shows tpch
SHOW CATALOGS

--! shows hr_b
SHOW SCHEMAS FROM memory

--! shows ssn
SHOW CREATE TABLE people

--! shows query_max_run_time
SHOW SESSION

--! shows max_by
SHOW FUNCTIONS

--! shows ssn
SHOW STATS FOR people

--@ class describe
--! shows ssn
DESCRIBE people

--@ class explain
--! shows ZQXA
EXPLAIN SELECT * FROM people WHERE ssn = 'ZQXA-SSN-1001'

--! shows ScanFilter
EXPLAIN ANALYZE SELECT count(*) FROM people WHERE ssn LIKE 'ZQXA%'

--! shows ssn
EXPLAIN (TYPE DISTRIBUTED) SELECT name, ssn FROM people

--@ class table-function
--! shows 5
SELECT count(*) FROM TABLE(sequence(start => 1, stop => 5))

--! shows 1000000
SELECT max(sequential_number) FROM TABLE(sequence(start => 1, stop => 1000000))

SELECT * FROM TABLE(exclude_columns(input => TABLE(people), columns => DESCRIPTOR(name, dept)))

SELECT * FROM TABLE(exclude_columns(input => TABLE(SELECT ssn, name FROM people), columns => DESCRIPTOR(name)))
