--@ class lead-pg-case
SELECT (SELECT ssn FROM (SELECT 1 AS "SSN") t) AS v FROM people

SELECT name AS "SSN" FROM people ORDER BY ssn

SELECT (SELECT ssn FROM (VALUES (1)) AS t("Ssn")) AS v FROM people

WITH c("SSN") AS (SELECT 'x') SELECT (SELECT ssn FROM c) AS v FROM people

SELECT (SELECT "ssn" FROM (SELECT 'x' AS SSN) t) AS v FROM people

--@ class lead-pg-types
--@ RAN secrets
SELECT NULL::secrets

--@ RAN secrets
SELECT CAST(NULL AS secrets) IS NULL

--@ RAN secrets
SELECT NULL::secrets[]

--@ RAN secrets
SELECT NULL::_secrets

--@ RAN secrets
SELECT jsonb_populate_record(NULL::hostile.secrets, '{}')

--@ RAN secrets
SELECT json_populate_record(NULL::"secrets", '{}')

--@ RAN secrets
SELECT to_jsonb(NULL::secrets)

--@ RAN secrets
SELECT pg_typeof(NULL::secrets)

--@ RAN secrets
SELECT '{secrets}'::regclass[]

--@ RAN secrets
SELECT 'secrets'::regtype

--@ RAN secrets
SELECT '_secrets'::regtype::text

--@ RAN people
SELECT to_jsonb(NULL::people)

--@ RAN people
SELECT (jsonb_populate_record(NULL::people, '{"ssn": "x"}')).ssn

--@ RAN people
SELECT row_to_json(jsonb_populate_record(NULL::people, '{}'))

--@ RAN people
SELECT '(1,a,b,c,2000-01-01,1,zz,3,q)'::people

--@ class lead-pg-index
SELECT id FROM people WHERE dept = 'eng' LIMIT 2
