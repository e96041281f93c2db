-- SQLite compares every name ignoring ASCII case, quoted or not: the derived column in any spelling.
--@ class sqlite-case-harmless
SELECT (SELECT salary FROM (SELECT 1 AS "SALARY") t) FROM people

SELECT (SELECT P.salary FROM (SELECT 1 AS salary) p) FROM people P

SELECT (WITH C("Salary") AS (SELECT 1) SELECT salary FROM c) FROM people

--@ class sqlite-case
SELECT (SELECT "salary" FROM (SELECT 1 AS x) t) FROM people

SELECT (SELECT "SALARY" FROM (SELECT 1 AS x) t) FROM people

-- schema.table.column names the real table, never a derived table of that alias
--@ class sqlite-schema-qualified
SELECT (SELECT main.people.salary FROM (SELECT 1 AS salary) AS people) FROM people

SELECT (SELECT main.people.ssn FROM (SELECT 'x' AS ssn) AS people) FROM people
