CREATE TABLE teams (id INT PRIMARY KEY, name VARCHAR(40));
CREATE TABLE staff (id INT PRIMARY KEY, name VARCHAR(40), salary INT, team_id INT);
CREATE TABLE secrets (id INT, secret VARCHAR(40));
INSERT INTO staff VALUES (1, 'Ann', 100, 1);
