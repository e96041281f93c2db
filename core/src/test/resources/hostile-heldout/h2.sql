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
