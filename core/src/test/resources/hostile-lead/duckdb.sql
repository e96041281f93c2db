--@ class lead-duck-case
SELECT (SELECT "SSN" FROM (SELECT 1 AS x) t) AS v FROM people

SELECT (SELECT ssn FROM (SELECT 1 AS "SSN") t) AS v FROM people

SELECT name AS x FROM people ORDER BY "Ssn"
