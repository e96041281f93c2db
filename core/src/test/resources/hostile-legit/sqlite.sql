-- Legitimate SQLite a model writes over the hostile fixture's allowed data (people without ssn and
-- salary, pets and orders through their row filters, the FTS5 table notes_fts the policy allows). One
-- statement per blank-line-separated block; every one returns rows. LegitimateDialectSqlTest runs each
-- through the full default path: none may be refused.

SELECT name, dept FROM people ORDER BY name

SELECT dept, count(*) AS n FROM people GROUP BY dept ORDER BY n DESC

SELECT dept AS d, count(*) AS n FROM people GROUP BY d ORDER BY d

SELECT name, score, rank() OVER (ORDER BY score DESC) AS r FROM people

SELECT name, dept, row_number() OVER (PARTITION BY dept ORDER BY born) AS rn FROM people

SELECT name, score, lag(score) OVER (ORDER BY id) AS prev, lead(score, 1, 0) OVER (ORDER BY id) AS next FROM people

SELECT name, dept, avg(score) OVER (PARTITION BY dept) AS dept_avg FROM people

SELECT name, sum(score) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS running FROM people

SELECT name, ntile(3) OVER (ORDER BY score) AS bucket, percent_rank() OVER (ORDER BY score) AS pr, cume_dist() OVER (ORDER BY score) AS cd FROM people

SELECT DISTINCT dept, first_value(name) OVER (PARTITION BY dept ORDER BY score DESC) AS best FROM people

SELECT name, dense_rank() OVER w AS dr FROM people WINDOW w AS (ORDER BY dept)

SELECT count(*) FILTER (WHERE score > 50) AS high, count(*) FILTER (WHERE score <= 50) AS low FROM people

SELECT dept, sum(score) FILTER (WHERE city = 'Oslo') AS oslo_score, count(*) AS n FROM people GROUP BY dept

SELECT status, count(*) FILTER (WHERE amount > 30) AS big_orders FROM orders GROUP BY status

WITH d(dept_name, people_count) AS (SELECT dept, count(*) FROM people GROUP BY dept) SELECT dept_name, people_count FROM d ORDER BY people_count DESC

WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5) SELECT i FROM n

WITH RECURSIVE chain(id, depth) AS (SELECT id, 1 FROM people WHERE id = 1 UNION ALL SELECT p.id, c.depth + 1 FROM people p JOIN chain c ON p.id = c.id + 1 WHERE c.depth < 4) SELECT id, depth FROM chain

WITH busy AS (SELECT person_id, count(*) AS n FROM orders GROUP BY person_id) SELECT p.name, b.n FROM people p JOIN busy b ON b.person_id = p.id

SELECT p.name, (SELECT count(*) FROM orders o WHERE o.person_id = p.id) AS orders_count FROM people p

SELECT name FROM people p WHERE EXISTS (SELECT 1 FROM orders o WHERE o.person_id = p.id)

SELECT name FROM people p WHERE score > (SELECT avg(score) FROM people q WHERE q.dept = p.dept)

SELECT name FROM people WHERE id IN (SELECT person_id FROM orders WHERE status = 'open')

SELECT kind AS label FROM pets UNION SELECT status FROM orders ORDER BY 1

SELECT dept FROM people INTERSECT SELECT dept FROM people WHERE score > 20

SELECT city FROM people EXCEPT SELECT city FROM people WHERE score > 90

SELECT name, CASE WHEN score >= 70 THEN 'high' WHEN score >= 40 THEN 'mid' ELSE 'low' END AS band FROM people

SELECT name, CASE dept WHEN 'eng' THEN 1 ELSE 0 END AS is_eng FROM people

SELECT coalesce(nullif(city, 'Oslo'), 'home') AS place, count(*) AS n FROM people GROUP BY place

SELECT name, ifnull(city, '?') AS c, iif(score > 50, 'high', 'low') AS level FROM people

SELECT upper(name) AS u, lower(dept) AS l, length(name) AS len FROM people

SELECT substr(name, 1, 2) AS s, substr(city, -2) AS tail, replace(city, 'o', '0') AS c FROM people

SELECT name || '@' || dept AS handle, trim('  x  ') AS t, ltrim('xxa', 'x') AS lt FROM people

SELECT instr(name, 'a') AS pos, printf('%05d', score) AS padded, printf('%.2f', score / 3.0) AS third FROM people

SELECT dept, group_concat(name, ', ') AS names FROM people GROUP BY dept

SELECT strftime('%Y', born) AS y, count(*) AS n FROM people GROUP BY y ORDER BY y

SELECT strftime('%Y-%m', placed) AS month, count(*) AS n FROM orders GROUP BY month

SELECT id, date(placed, '+7 days') AS due FROM orders

SELECT id, julianday('2025-01-01') - julianday(placed) AS days_before FROM orders

SELECT name, CAST(strftime('%Y', '2025-01-01') AS INTEGER) - CAST(strftime('%Y', born) AS INTEGER) AS age FROM people

SELECT date(placed, 'start of month') AS m, sum(amount) AS total FROM orders GROUP BY m

SELECT round(avg(amount), 2) AS mean, max(amount) AS hi, min(amount) AS lo, sum(amount) AS total, total(amount) AS t FROM orders

SELECT status, count(*) AS n, sum(amount) AS total FROM orders GROUP BY status HAVING count(*) >= 1 ORDER BY total DESC

SELECT o.id, p.name, o.amount FROM orders o JOIN people p ON p.id = o.person_id WHERE o.amount > 20

SELECT max(score, 50) AS g, min(score, 50) AS l, abs(score - 50) AS a, score % 7 AS m FROM people

SELECT name FROM people WHERE name LIKE 'a%' OR name LIKE 'B%'

SELECT name FROM people WHERE born BETWEEN '1980-01-01' AND '1985-12-31'

SELECT kind, count(*) AS n FROM pets GROUP BY kind ORDER BY count(*) DESC, kind

SELECT owner, count(*) AS n FROM pets GROUP BY owner

SELECT tenant, count(*) AS n FROM orders GROUP BY tenant

SELECT id, CAST(amount AS INTEGER) AS whole, typeof(amount) AS t FROM orders

SELECT name FROM people ORDER BY score DESC NULLS LAST LIMIT 5

SELECT name FROM people ORDER BY id LIMIT 3 OFFSET 2

SELECT p.name, count(o.id) AS n FROM people p LEFT JOIN orders o ON o.person_id = p.id GROUP BY p.name ORDER BY n DESC

SELECT k.kind, avg(k.age) AS mean_age FROM pets k GROUP BY k.kind HAVING avg(k.age) > 1

SELECT json_object('name', name, 'dept', dept) AS j FROM people

SELECT json_group_array(kind) AS kinds FROM pets

SELECT x.d, x.n FROM (SELECT dept AS d, count(*) AS n FROM people GROUP BY dept) x WHERE x.n > 1

SELECT o.status, p.dept, sum(o.amount) AS total FROM orders o JOIN people p ON p.id = o.person_id GROUP BY o.status, p.dept

SELECT title FROM notes_fts WHERE notes_fts MATCH 'alpha'

SELECT title, body FROM notes_fts WHERE body MATCH 'dog' ORDER BY rank

SELECT title, bm25(notes_fts) AS score FROM notes_fts WHERE notes_fts MATCH 'alpha OR dog' ORDER BY score

SELECT highlight(notes_fts, 1, '[', ']') AS hit FROM notes_fts WHERE notes_fts MATCH 'dog'

SELECT snippet(notes_fts, 1, '<', '>', '...', 4) AS snip FROM notes_fts WHERE notes_fts MATCH 'alpha'

SELECT title FROM notes_fts WHERE notes_fts MATCH 'title:note'

SELECT count(*) AS n FROM notes_fts

SELECT title FROM notes_fts ORDER BY title
