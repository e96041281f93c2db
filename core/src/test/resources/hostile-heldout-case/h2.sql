-- H2 folds a bare name to upper case and keeps a quoted one exact: bare salary is people's SALARY, not a
-- derived "salary".
--@ class h2-quoted-case
SELECT (SELECT salary FROM (SELECT 1 AS "salary") t) FROM people

SELECT (SELECT SALARY FROM (SELECT 1 AS "salary") t) FROM people

SELECT (SELECT Salary FROM (SELECT 1 AS "Salary") t) FROM people

SELECT (SELECT salary FROM (SELECT 1) AS t("salary")) FROM people

SELECT (WITH c("salary") AS (SELECT 1) SELECT salary FROM c) FROM people

SELECT (WITH c AS (SELECT 1 AS "salary") SELECT salary FROM c) FROM people

WITH c AS (SELECT 1 AS "salary") SELECT (SELECT salary FROM c) FROM people

SELECT (SELECT salary FROM (VALUES (1)) AS t("salary")) FROM people

SELECT (SELECT ssn FROM (SELECT 'x' AS "ssn") t) FROM people

SELECT (SELECT p.salary FROM (SELECT 1 AS salary) AS "p") FROM people p

SELECT (SELECT "P".salary FROM (SELECT 1 AS salary) AS "p") FROM people p

SELECT (SELECT people.salary FROM (SELECT 1 AS salary) AS "people") FROM people

SELECT name FROM people WHERE EXISTS (SELECT 1 FROM (SELECT 1 AS "salary") t WHERE salary > 500000000)

SELECT name FROM people WHERE id IN (SELECT salary - 999999900 FROM (SELECT 1 AS "salary") t)

SELECT dept, MAX((SELECT salary FROM (SELECT 1 AS "salary") t)) FROM people GROUP BY dept

SELECT dept FROM people GROUP BY dept HAVING MAX((SELECT salary FROM (SELECT 1 AS "salary") t)) > 0

SELECT name FROM people ORDER BY (SELECT salary FROM (SELECT 1 AS "salary") t), name

SELECT (SELECT salary FROM (SELECT 1 AS "salary") t) FROM PUBLIC.people

SELECT (SELECT salary FROM UNNEST(ARRAY[1]) AS u("salary")) FROM people

SELECT (SELECT (SELECT salary FROM (SELECT 1 AS "salary") t) FROM (SELECT 1 AS x) u) FROM people

SELECT (SELECT salary FROM (SELECT 1 AS "salary") t WHERE "salary" = 1) FROM people

SELECT (SELECT ssn_key FROM (SELECT 'x' AS "ssn_key") t) FROM people

--@ class h2-case-harmless
-- a bare name H2's other identifier settings (DATABASE_TO_LOWER, CASE_INSENSITIVE_IDENTIFIERS) would bind
-- elsewhere: refused by the guard, harmless under the default settings
SELECT (SELECT SALARY FROM (SELECT 1 AS "SALARY") t) FROM people

SELECT (SELECT salary FROM (SELECT 1 AS "SALARY") t) FROM people

-- schema.table.column names the real table, never a derived table of that alias
--@ class h2-schema-qualified
SELECT (SELECT PUBLIC.people.salary FROM (SELECT 1 AS salary) AS people) FROM people

SELECT (SELECT PUBLIC.PEOPLE.SALARY FROM (SELECT 1 AS salary) AS "PEOPLE") FROM people

SELECT (SELECT public.people.ssn FROM (VALUES ('x')) AS people(ssn)) FROM people
