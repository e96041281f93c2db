-- PostgreSQL folds a bare name to lower case and keeps a quoted one exact: bare salary is not "SALARY".
--@ class pg-quoted-case
SELECT (SELECT salary FROM (SELECT 1 AS "SALARY") t) FROM people

SELECT (SELECT salary FROM (SELECT 1 AS "Salary") t) FROM people

SELECT (SELECT "salary" FROM (SELECT 1 AS "Salary") t) FROM people

SELECT (SELECT salary FROM (SELECT 1) AS t("SALARY")) FROM people

SELECT (WITH c("Salary") AS (SELECT 1) SELECT salary FROM c) FROM people

WITH c AS (SELECT 1 AS "SALARY") SELECT (SELECT salary FROM c) FROM people

SELECT (SELECT salary FROM (VALUES (1)) AS t("Salary")) FROM people

SELECT (SELECT ssn FROM (SELECT 'x' AS "SSN") t) FROM people

SELECT (SELECT p.salary FROM (SELECT 1 AS salary) AS "P") FROM people p

SELECT (SELECT people.salary FROM (SELECT 1 AS salary) AS "People") FROM people

SELECT name FROM people WHERE EXISTS (SELECT 1 FROM (SELECT 1 AS "Salary") t WHERE salary > 500000000)

SELECT dept, MAX((SELECT salary FROM (SELECT 1 AS "SALARY") t)) FROM people GROUP BY dept

SELECT name FROM people ORDER BY (SELECT salary FROM (SELECT 1 AS "SALARY") t), name

SELECT (SELECT salary FROM unnest(ARRAY[1]) AS u("Salary")) FROM people

SELECT (SELECT salary FROM (SELECT 1 AS "SALARY") t) FROM hostile.people

--@ class pg-case-harmless
-- the same name to PostgreSQL: harmless, the derived column
SELECT (SELECT "salary" FROM (SELECT 1 AS SALARY) t) FROM people

-- schema.table.column names the real table, never a derived table of that alias
--@ class pg-schema-qualified
SELECT (SELECT hostile.people.salary FROM (SELECT 1 AS salary) AS people) FROM people

SELECT (SELECT hostile.people.ssn FROM (VALUES ('x')) AS people(ssn)) FROM people
