--@ class lead-h2-case
SELECT (SELECT SALARY FROM (SELECT 1 AS "salary") t) AS v FROM people

SELECT name AS "ssn" FROM people ORDER BY ssn

SELECT name AS "ssn" FROM people ORDER BY SSN DESC LIMIT 2

SELECT count(*) AS "salary" FROM people GROUP BY salary HAVING salary > 0

WITH c("ssn") AS (SELECT 'x') SELECT (SELECT ssn FROM c) AS v FROM people

SELECT (SELECT ssn FROM (VALUES (1)) AS t("ssn")) AS v FROM people

SELECT (SELECT "SSN" FROM (SELECT 1 AS "ssn") t) AS v FROM people

SELECT name FROM people WHERE (SELECT ssn FROM (SELECT 'x' AS "ssn") t) LIKE 'Z%'

SELECT * FROM (SELECT 1 AS "ssn") t JOIN people ON t."ssn" = 1 WHERE ssn > ''

--@ class lead-h2-index
SELECT id FROM people USE INDEX (idx_people_ssn)

SELECT LISTAGG(id, ',') FROM people USE INDEX (IDX_PEOPLE_SSN)

SELECT id FROM people USE INDEX ("IDX_PEOPLE_SSN") LIMIT 2

SELECT ARRAY_AGG(id) FROM people
