--@ class index-order
-- Row order from an index on a denied column (issue 29): no denied column is read, but a read through
-- idx_people_ssn, idx_people_dept_salary or idx_orders_tenant_card returns rows in the denied order, which
-- LIMIT/OFFSET, a window without ORDER BY or an order-sensitive aggregate turns into values.
SELECT id FROM people LIMIT 1

SELECT id FROM people LIMIT 2 OFFSET 5

SELECT p.id FROM people p WHERE p.dept = 'eng' LIMIT 1

SELECT p.id FROM people p WHERE p.dept = 'ops' LIMIT 1 OFFSET 1

SELECT id, ROW_NUMBER() OVER () AS r FROM people

SELECT p.id, ROW_NUMBER() OVER () AS r FROM people p WHERE p.dept = 'sales'

SELECT t.id FROM (SELECT id FROM people LIMIT 3) t

SELECT o.id FROM orders o LIMIT 1

SELECT o.id, ROW_NUMBER() OVER () AS r FROM orders o

SELECT o.id FROM orders o WHERE o.tenant = 't1' LIMIT 2

SELECT p.name FROM people p WHERE p.id IN (SELECT id FROM people LIMIT 1)

SELECT DISTINCT p.dept, p.id FROM people p WHERE p.dept = 'eng' LIMIT 1

SELECT string_agg(id::text, ',') FROM people

SELECT array_agg(id) FROM people

SELECT json_agg(p.id) FROM people p WHERE p.dept = 'eng'

SELECT string_agg(o.id::text, ',') FROM orders o
