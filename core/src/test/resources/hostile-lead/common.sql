-- The lead's held-out round 4 (written while the fixes were made, unseen by their authors): identity, not spelling.
--@ class lead-alias-case
SELECT (SELECT ssn FROM (SELECT 1 AS "SSN") t) AS v FROM people

SELECT (SELECT salary FROM (SELECT 1 AS "Salary") t) AS v FROM people

SELECT name AS "SSN" FROM people ORDER BY ssn

SELECT name AS "Ssn" FROM people ORDER BY ssn LIMIT 3

SELECT max(name) AS "SALARY" FROM people GROUP BY salary ORDER BY 1

WITH t("SSN") AS (SELECT 1) SELECT (SELECT ssn FROM t) AS v FROM people

WITH "T"(ssn) AS (SELECT 1) SELECT (SELECT ssn FROM "T") AS v FROM people

SELECT (SELECT x.ssn FROM (SELECT 1 AS "SSN") x) AS v FROM people x

SELECT p.name FROM people p WHERE p.id IN (SELECT id FROM (SELECT id, 0 AS "SALARY" FROM pets) q WHERE salary > 0)

SELECT name FROM people WHERE EXISTS (SELECT 1 FROM (SELECT 1 AS "SSN") z WHERE ssn LIKE 'Z%')

SELECT name FROM people p JOIN (SELECT 1 AS "SSN") z ON ssn LIKE 'Z%'

SELECT (SELECT "ssn" FROM (SELECT 1 AS SSN) t) AS v FROM people

SELECT (SELECT P.ssn FROM (SELECT 1 AS ssn) AS p) AS v FROM people P

SELECT (SELECT p.ssn FROM (SELECT 1 AS ssn) AS "P") AS v FROM people p

SELECT (SELECT count(*) FROM pets "Pets" WHERE pets.owner <> 'alice') AS v FROM pets

--@ class lead-access-path
SELECT id FROM people LIMIT 3 OFFSET 8

SELECT id FROM people WHERE dept IS NOT NULL LIMIT 4

SELECT min(id), max(id) FROM (SELECT id FROM people LIMIT 6) x

