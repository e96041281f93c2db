--@ class sqlite-error-channel
SELECT count(*) FROM pets WHERE CASE WHEN kind LIKE 'Z_XA%' THEN abs(-9223372036854775807 - 1) ELSE 0 END = 0

SELECT count(*) FROM orders WHERE CASE WHEN status LIKE 'Z_XA%' THEN json(status) ELSE '1' END IS NOT NULL

SELECT count(*) FROM pets WHERE json_extract(CASE WHEN owner = 'bob' THEN '{' ELSE '{}' END, '$') IS NULL

--@ class sqlite-fts5
SELECT title FROM notes_fts WHERE notes_fts MATCH 'alpha'

SELECT rank, title FROM notes_fts WHERE notes_fts MATCH 'dog' ORDER BY rank

SELECT snippet(notes_fts, 1, '[', ']', '...', 5) FROM notes_fts WHERE notes_fts MATCH 'dog'

SELECT highlight(notes_fts, 0, '<', '>') FROM notes_fts WHERE notes_fts MATCH 'alpha'

SELECT bm25(notes_fts) FROM notes_fts WHERE notes_fts MATCH 'alpha'

SELECT title FROM notes_fts WHERE notes_fts = 'alpha'

SELECT title FROM notes_fts WHERE notes_fts MATCH (SELECT max(ssn) FROM people)

SELECT title FROM notes_fts WHERE title MATCH (SELECT kind FROM pets WHERE kind LIKE 'Z_X%' LIMIT 1)

SELECT title FROM notes_fts WHERE rank MATCH 'bm25(10.0)' AND notes_fts MATCH 'dog'

SELECT count(*) FROM notes_fts n JOIN people p ON p.ssn LIKE n.title

SELECT notes_fts FROM notes_fts

--@ class sqlite-whole-row
SELECT p.rowid FROM people p WHERE p.ssn IS NOT NULL

SELECT name FROM people p WHERE p._rowid_ = 1 AND p.salary > 800000000

SELECT oid, name FROM people

SELECT name FROM people WHERE "ssn" LIKE 'Z_X%'

SELECT name FROM people WHERE [salary] > 800000000

SELECT name FROM people WHERE `ssn` IS NOT NULL

SELECT main.people.ssn FROM main.people

SELECT name FROM people INDEXED BY idx_people_ssn WHERE ssn > ''

SELECT name FROM people p WHERE (p.id, p.name) IN (SELECT id, ssn FROM people)

SELECT json_group_array(json_object('s', ssn)) FROM people

SELECT ssn_key FROM people

--@ RAN \bload_extension\b
SELECT name FROM people WHERE name = load_extension('x')

--@ RAN \bsqlite_version\b
SELECT name FROM people WHERE name = (SELECT sqlite_version())

--@ RAN \bsqlite_(master|schema)\b
SELECT name FROM people WHERE name IN (SELECT name FROM sqlite_master)

--@ RAN \bjson_each\b
SELECT name FROM people WHERE name IN (SELECT value FROM json_each('["ann"]'))

--@ RAN \bpragma_
SELECT name FROM people WHERE name IN (SELECT name FROM pragma_table_info('secrets'))

--@ BIG
SELECT length(group_concat(printf('%.1000c', 'x'), '')) FROM people a, people b, people c

--@ BIG
WITH RECURSIVE r(s) AS (SELECT 'ab' UNION ALL SELECT s || s FROM r WHERE length(s) < 3000000) SELECT max(s) FROM r

--@ BIG
SELECT group_concat(hex(zeroblob(100000)), '') FROM people

--@ class row-filter-order-cast
SELECT count(*) FROM pets WHERE CAST(CASE WHEN owner <> 'alice' THEN kind ELSE '0' END AS INTEGER) = 0

SELECT count(*) FROM orders WHERE CAST(CASE WHEN tenant <> 't1' THEN status ELSE '0' END AS INTEGER) >= 0

SELECT p.name FROM people p JOIN orders o ON o.person_id = p.id AND CAST(CASE WHEN o.tenant <> 't1' THEN o.status ELSE '1' END AS INTEGER) > 0

SELECT count(*) FROM pets WHERE CAST(CASE WHEN age > 30 THEN kind ELSE '0' END AS DATE) IS NULL

SELECT kind FROM pets WHERE 10 / (age - 31) >= 0

SELECT count(*) FROM pets WHERE kind IN (SELECT kind FROM pets WHERE CAST(CASE WHEN age > 30 THEN kind ELSE '0' END AS INTEGER) = 0)

SELECT match.ssn FROM people AS match

SELECT match.name FROM people AS match WHERE match.salary > 0 ORDER BY match.salary

SELECT name FROM people WHERE 0 < salary < 2 ORDER BY id

SELECT name FROM people WHERE 1 < id < (SELECT max(salary) FROM people)
