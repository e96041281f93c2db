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

SELECT GROUP_CONCAT(id) FROM people

SELECT GROUP_CONCAT(p.id) FROM people p WHERE p.dept = 'eng'

SELECT dept, GROUP_CONCAT(id) FROM people GROUP BY dept

SELECT GROUP_CONCAT(o.id) FROM orders o

SELECT JSON_ARRAYAGG(id) FROM people

SELECT GROUP_CONCAT(id) FROM people USE INDEX (idx_people_ssn)

SELECT GROUP_CONCAT(id) FROM people FORCE INDEX (idx_people_ssn)

SELECT GROUP_CONCAT(id) FROM people FORCE INDEX (idx_people_dept_salary) WHERE dept > ''

SELECT id FROM people USE INDEX FOR ORDER BY (idx_people_ssn) LIMIT 1

SELECT GROUP_CONCAT(id) FROM people IGNORE INDEX (PRIMARY, idx_people_dept)

SELECT GROUP_CONCAT(o.id) FROM orders o FORCE INDEX (idx_orders_tenant_card)

SELECT GROUP_CONCAT(id) FROM people FORCE KEY (idx_people_ssn)

SELECT dept, MIN(id) FROM people FORCE INDEX FOR GROUP BY (idx_people_dept_salary) GROUP BY dept
