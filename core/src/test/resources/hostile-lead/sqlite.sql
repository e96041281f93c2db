--@ class lead-sqlite-index
SELECT id FROM people INDEXED BY idx_people_ssn

SELECT group_concat(id) FROM people INDEXED BY idx_people_ssn

SELECT group_concat(id) FROM people INDEXED BY "IDX_PEOPLE_SSN"

SELECT id FROM people LIMIT 3 OFFSET 9

--@ class lead-sqlite-case
SELECT (SELECT "SSN" FROM (SELECT 1 AS x) t) AS v FROM people

SELECT name AS x FROM people ORDER BY "Ssn"
