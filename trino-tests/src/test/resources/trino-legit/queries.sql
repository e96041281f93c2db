-- Legitimate Trino SQL over the allowed columns only (people without ssn and salary, pets of alice, orders of
-- tenant t1 without card). Each runs raw in both twins with the same rows and no marker (TrinoLegitRawTest).
--@ class window
SELECT name, dept, rank() OVER (PARTITION BY dept ORDER BY score DESC) AS r FROM people

SELECT name, score, sum(score) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM people

SELECT name, lag(name) OVER w, lead(name) OVER w FROM people WINDOW w AS (PARTITION BY dept ORDER BY born)

SELECT dept, name, ntile(2) OVER (PARTITION BY dept ORDER BY score) FROM people

--@ class approx
SELECT approx_distinct(city) FROM people

SELECT dept, approx_percentile(score, 0.5) FROM people GROUP BY dept

SELECT approx_percentile(score, ARRAY[0.25, 0.75]) FROM people

--@ class dates
SELECT date_trunc('month', born) AS m, count(*) FROM people GROUP BY 1 ORDER BY 1

SELECT name FROM people WHERE born >= DATE '1980-01-01' AND born < DATE '1985-01-01' + INTERVAL '1' YEAR

SELECT year(born), month(born), day_of_week(born) FROM people

SELECT date_diff('day', placed, DATE '2024-12-31') FROM orders WHERE tenant = 't1'

SELECT format_datetime(CAST(born AS timestamp), 'yyyy-MM') FROM people

SELECT CAST(TIMESTAMP '2024-01-01 10:00:00 UTC' AT TIME ZONE 'Asia/Tokyo' AS varchar)

--@ class arrays
SELECT name, transform(tags, t -> upper(t)) FROM people

SELECT name FROM people WHERE any_match(tags, t -> t = 'eng')

SELECT filter(tags, t -> t LIKE 'n%') FROM people

SELECT reduce(tags, 0, (s, t) -> s + length(t), s -> s) FROM people

SELECT cardinality(tags), tags[1], element_at(tags, -1) FROM people

SELECT array_agg(name ORDER BY id) FROM people WHERE dept = 'eng'

SELECT dept, array_join(array_sort(array_agg(city)), ',') FROM people GROUP BY dept

SELECT contains(tags, 'ops'), array_distinct(tags || ARRAY['x']) FROM people

--@ class maps
SELECT name, attrs['team'] FROM people

SELECT transform_values(attrs, (k, v) -> upper(v)) FROM people

SELECT map_keys(attrs), map_values(attrs) FROM people WHERE id = 1

SELECT map_agg(name, score) FROM people WHERE dept = 'ops'

SELECT MAP(ARRAY['a', 'b'], ARRAY[1, 2])['b']

--@ class unnest
SELECT name, t FROM people CROSS JOIN UNNEST(tags) AS u(t)

SELECT name, t, n FROM people CROSS JOIN UNNEST(tags) WITH ORDINALITY AS u(t, n)

SELECT k, v FROM people CROSS JOIN UNNEST(attrs) AS u(k, v) WHERE id = 2

SELECT x FROM UNNEST(ARRAY[3, 1, 2]) AS u(x) ORDER BY x

SELECT name, u.t FROM people p, UNNEST(p.tags) u(t) WHERE u.t LIKE 'n%'

SELECT x, y FROM UNNEST(ARRAY[1, 2], ARRAY['a', 'b']) AS u(x, y)

SELECT name, (SELECT max(t) FROM UNNEST(tags) AS u(t)) FROM people

SELECT name, x FROM people LEFT JOIN UNNEST(transform(tags, t -> upper(t))) AS u(x) ON true

SELECT kind, x FROM pets CROSS JOIN UNNEST(ARRAY[kind, 'pet']) AS u(x) WHERE owner = 'alice'

SELECT status, n FROM orders CROSS JOIN UNNEST(ARRAY[status]) WITH ORDINALITY AS u(s, n) WHERE tenant = 't1'

--@ class grouping
SELECT dept, city, count(*) FROM people GROUP BY GROUPING SETS ((dept), (city), ())

SELECT dept, city, count(*) FROM people GROUP BY CUBE (dept, city)

SELECT dept, city, avg(score) FROM people GROUP BY ROLLUP (dept, city)

SELECT dept, grouping(dept), count(*) FROM people GROUP BY ROLLUP (dept)

--@ class fetch
SELECT name FROM people ORDER BY score DESC FETCH FIRST 3 ROWS ONLY

SELECT name FROM people ORDER BY score DESC FETCH FIRST 2 ROWS WITH TIES

SELECT name FROM people ORDER BY id OFFSET 2 ROWS FETCH NEXT 2 ROWS ONLY

SELECT name FROM people ORDER BY id OFFSET 10

--@ class rows
SELECT CAST(ROW(name, score) AS ROW(n varchar, s integer)).n FROM people

SELECT json_format(CAST(CAST(ROW(name, city) AS ROW(n varchar, c varchar)) AS JSON)) FROM people

SELECT CAST(ROW(name, score) AS ROW(n varchar(10), s decimal(10, 2))).s FROM people

SELECT TRY_CAST(ROW(city, dept) AS ROW(c varchar, d varchar)).d FROM people WHERE id < 4

SELECT ROW(1, 'a') = ROW(1, 'a')

--@ class functions
SELECT max_by(name, score), min_by(name, score) FROM people

SELECT format('%s lives in %s', name, city) FROM people

SELECT name FROM people WHERE regexp_like(city, '^[KL]')

SELECT try_cast(city AS integer), try(score / 0) FROM people

SELECT IF(score > 50, 'high', 'low') FROM people

SELECT count(*) FILTER (WHERE score > 50), count(*) FROM people

SELECT listagg(name, ',') WITHIN GROUP (ORDER BY name) FROM people WHERE dept = 'eng'

SELECT json_extract_scalar('{"a": 1}', '$.a'), JSON_QUERY('{"a": [1]}', 'lax $.a')

SELECT JSON_VALUE(json_format(CAST(MAP(ARRAY['n'], ARRAY[name]) AS JSON)), 'lax $.n') FROM people

SELECT name, JSON_QUERY(json_format(CAST(tags AS JSON)), 'lax $') FROM people WHERE id < 5

SELECT "name", "dept" FROM "people" WHERE "id" = 1

--@ class joins
SELECT p.name, q.kind FROM people p JOIN pets q ON q.age = p.score % 8 WHERE q.owner = 'alice'

SELECT p.name, sum(o.amount) FROM people p JOIN orders o ON o.person_id = p.id WHERE o.tenant = 't1' GROUP BY p.name

SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v(id, label)

SELECT p.name, v.label FROM people p JOIN (VALUES (1, 'one'), (2, 'two')) AS v(id, label) ON v.id = p.id

SELECT label FROM (VALUES (1, 'a'), (2, 'b')) AS v(id, label) WHERE id > 1

SELECT p.name, l.n FROM people p CROSS JOIN LATERAL (SELECT count(*) AS n FROM pets WHERE owner = 'alice' AND age > p.score % 7) l

SELECT dept FROM people EXCEPT ALL SELECT 'ops'

SELECT city FROM people INTERSECT ALL SELECT city FROM people WHERE dept = 'eng'

SELECT name FROM people WHERE city IS DISTINCT FROM 'Oslo'

SELECT name FROM people p WHERE EXISTS (SELECT 1 FROM orders o WHERE o.person_id = p.id AND o.tenant = 't1')
