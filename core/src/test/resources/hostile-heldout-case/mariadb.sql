-- MariaDB compares table aliases exactly (lower_case_table_names=0), column names ignoring case: a
-- qualifier in another case names the outer FROM item.
--@ class mariadb-alias-case
SELECT p.dept, MAX((SELECT p.salary FROM (SELECT id AS salary FROM pets LIMIT 1) AS P)) FROM people p GROUP BY p.dept

SELECT (SELECT p.salary FROM (SELECT 1 AS salary) P) FROM people p

SELECT (SELECT P.salary FROM (SELECT 1 AS salary) p) FROM people P

SELECT (SELECT people.salary FROM (SELECT 1 AS salary) PEOPLE) FROM people

SELECT (SELECT p.ssn FROM (SELECT 'x' AS ssn) P) FROM people p

SELECT (SELECT `p`.salary FROM (SELECT 1 AS salary) `P`) FROM people p

SELECT name FROM people p WHERE EXISTS (SELECT 1 FROM (SELECT 1 AS salary) P WHERE p.salary > 500000000)

SELECT name FROM people p ORDER BY (SELECT p.salary FROM (SELECT 1 AS salary) P), name

WITH P AS (SELECT 1 AS salary) SELECT (SELECT p.salary FROM P) FROM people p

SELECT (SELECT p.salary FROM (SELECT 1 AS salary) AS P JOIN (SELECT 2 AS y) AS Q) FROM people p

--@ class mariadb-case-harmless
-- columns ignore case on MariaDB: harmless, the derived column
SELECT (SELECT salary FROM (SELECT id AS `SALARY` FROM pets ORDER BY id LIMIT 1) t) FROM people

SELECT (SELECT p.salary FROM (SELECT id AS salary FROM pets ORDER BY id LIMIT 1) p) FROM people p

--@ class mariadb-alias-case
SELECT (SELECT PEOPLE.salary FROM (SELECT 1 AS salary) people) FROM people PEOPLE

SELECT (SELECT e.salary FROM (SELECT 1 AS salary) AS E JOIN (SELECT 1 AS z) AS e2) FROM people e
