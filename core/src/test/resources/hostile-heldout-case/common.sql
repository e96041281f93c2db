-- Held-out round of issue 29 (names resolve by identity, not by spelling): a name spelled in another case or
-- quoting than the FROM item it seems to name. Statements separated by blank lines, as in hostile-heldout/.
-- Every engine: the same spelling on both sides is never a way past the guard either.
--@ class case-same-spelling-harmless
SELECT (SELECT salary FROM (SELECT id AS salary FROM pets ORDER BY id LIMIT 1) t) FROM people

SELECT (SELECT t.ssn FROM (SELECT kind AS ssn FROM pets ORDER BY id LIMIT 1) t) FROM people

SELECT name FROM people p WHERE p.id IN (SELECT x.salary FROM (SELECT id AS salary FROM pets) x)
