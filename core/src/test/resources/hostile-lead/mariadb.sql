--@ class lead-maria-case
SELECT (SELECT P.ssn FROM (SELECT 1 AS ssn) AS p LIMIT 1) AS v FROM people P

SELECT max((SELECT P.salary FROM (SELECT id AS salary FROM pets LIMIT 1) AS p)) AS v FROM people P GROUP BY P.dept

SELECT (SELECT X.ssn FROM (SELECT 'a' AS ssn) x) AS v FROM people X

SELECT (SELECT `P`.`ssn` FROM (SELECT 1 AS ssn) AS `p`) AS v FROM people `P`

SELECT name AS `SSN` FROM people ORDER BY ssn

--@ class lead-maria-index
SELECT id FROM people FORCE INDEX (idx_people_ssn)

SELECT GROUP_CONCAT(id) FROM people FORCE INDEX (IDX_PEOPLE_SSN)

SELECT id FROM people USE INDEX FOR ORDER BY (idx_people_ssn) LIMIT 2

SELECT id FROM people USE KEY (idx_people_ssn) LIMIT 3

SELECT id FROM people IGNORE INDEX (idx_people_dept, PRIMARY) LIMIT 3 OFFSET 8

SELECT GROUP_CONCAT(id) FROM people

SELECT JSON_ARRAYAGG(id) FROM people

SELECT id FROM people LIMIT 1 OFFSET 11

--@ class lead-maria-host
--@ RAN (uuid|sys_guid)
SELECT LEFT(UUID(), 8) AS u

--@ RAN (uuid|sys_guid)
SELECT SYS_GUID() AS g

--@ RAN uuid_short
SELECT UUID_SHORT() AS s
