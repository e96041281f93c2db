-- Statements that are no query: session changes, procedures, writes, DDL. Each succeeds when run raw as an
-- administrator; what it does is the harm (TrinoHostileRawTest runs them last and then rebuilds the twins).
--@ class session
--! runs
SET SESSION query_max_run_time = '1h'

--! runs
SET SESSION query_max_memory = '1GB'

--! runs
RESET SESSION query_max_run_time

--! runs
SET TIME ZONE 'America/Lima'

--! runs
USE tpch.tiny

--! runs
USE memory.hr_b

--@ class write
--! runs
INSERT INTO people (id, name, dept, city, score, ssn, salary) VALUES (99, 'zed', 'eng', 'Oslo', 1, 'x', 1)

--! runs
INSERT INTO secrets SELECT id + 100, ssn, salary FROM people

--! runs
CREATE TABLE leak AS SELECT name, ssn, salary FROM people

--! runs
CREATE TABLE IF NOT EXISTS leak2 (x varchar)

--! runs
ALTER TABLE pets ADD COLUMN note varchar

--! runs
ALTER TABLE secrets RENAME TO secrets_old

--! runs
COMMENT ON TABLE people IS 'owned'

--! runs
CREATE VIEW v_leak AS SELECT ssn FROM people

--! runs
DROP TABLE IF EXISTS leak2

--! runs
TRUNCATE TABLE orders

--! runs
CREATE SCHEMA IF NOT EXISTS memory.hr_evil

--! runs
DROP SCHEMA IF EXISTS memory.hr_evil

--! runs
START TRANSACTION

--! runs
PREPARE q FROM SELECT ssn FROM people
