package dev.sqlagent.clean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.sqlagent.clean.SqlCleaner.Cleaned;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SqlCleanerTest {

    private final SqlCleaner cleaner = SqlCleaner.create();

    private String sqlOf(String reply) {
        Cleaned c = cleaner.clean(reply);
        assertThat(c.sql()).as("SQL of %s (problem: %s)", reply, c.problem()).isPresent();
        assertThat(c.problem()).isEmpty();
        return c.sql().get();
    }

    private static Arguments reply(String name, String reply, String expected) {
        return Arguments.of(name, reply, expected);
    }

    static Stream<Arguments> replies() {
        return Stream.of(
                // bare SQL and trailing punctuation
                reply("bare", "SELECT name FROM singer", "SELECT name FROM singer"),
                reply("trailing semicolon", "SELECT name FROM singer;", "SELECT name FROM singer"),
                reply("several semicolons and spaces", "  SELECT name FROM singer ; ;\n\n", "SELECT name FROM singer"),
                reply("full-width semicolon", "SELECT name FROM singer；", "SELECT name FROM singer"),
                reply("trailing full stop", "SELECT name FROM singer.", "SELECT name FROM singer"),
                reply("lower case", "select name from singer where age > 20", "select name from singer where age > 20"),
                reply("multi-line kept as is", "SELECT name,\n       country\nFROM singer\nWHERE age > 20\nORDER BY name;",
                        "SELECT name,\n       country\nFROM singer\nWHERE age > 20\nORDER BY name"),
                reply("select without from", "SELECT 1", "SELECT 1"),
                reply("select now()", "SELECT now();", "SELECT now()"),
                reply("with clause", "WITH t AS (SELECT id FROM a) SELECT * FROM t",
                        "WITH t AS (SELECT id FROM a) SELECT * FROM t"),
                reply("recursive cte", "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 5)\nSELECT x FROM n;",
                        "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 5)\nSELECT x FROM n"),
                reply("parenthesised union", "(SELECT a FROM t) UNION (SELECT b FROM u)",
                        "(SELECT a FROM t) UNION (SELECT b FROM u)"),
                reply("semicolon in a literal", "SELECT * FROM t WHERE note = 'a; b';", "SELECT * FROM t WHERE note = 'a; b'"),
                reply("distinct and top", "SELECT DISTINCT TOP 5 name FROM singer", "SELECT DISTINCT TOP 5 name FROM singer"),

                // fences
                reply("sql fence", "```sql\nSELECT name FROM singer;\n```", "SELECT name FROM singer"),
                reply("fence without language", "```\nSELECT name FROM singer\n```", "SELECT name FROM singer"),
                reply("upper-case language tag", "```SQL\nSELECT name FROM singer\n```", "SELECT name FROM singer"),
                reply("sqlite tag", "```sqlite\nSELECT count(*) FROM singer\n```", "SELECT count(*) FROM singer"),
                reply("fence with preamble and explanation",
                        "Sure! Here is the query:\n\n```sql\nSELECT T1.name\nFROM singer AS T1\nJOIN concert AS T2 ON T1.id = T2.singer_id;\n```\n\nThis query joins the singer and concert tables.",
                        "SELECT T1.name\nFROM singer AS T1\nJOIN concert AS T2 ON T1.id = T2.singer_id"),
                reply("unclosed fence", "```sql\nSELECT name FROM singer WHERE age > 30",
                        "SELECT name FROM singer WHERE age > 30"),
                reply("one-line fence", "```SELECT name FROM singer```", "SELECT name FROM singer"),
                reply("one-line fence with tag", "```sql SELECT name FROM singer```", "SELECT name FROM singer"),
                reply("first block without sql is skipped",
                        "The schema:\n```\nsinger(id, name, age)\n```\nThe query:\n```sql\nSELECT name FROM singer\n```",
                        "SELECT name FROM singer"),
                reply("first of two sql blocks",
                        "```sql\nSELECT name FROM singer\n```\nOr, ordered:\n```sql\nSELECT name FROM singer ORDER BY name\n```",
                        "SELECT name FROM singer"),
                reply("four backticks", "````sql\nSELECT 1\n````", "SELECT 1"),
                reply("sql outside a non-sql block", "```text\nthinking about it\n```\nSELECT name FROM singer",
                        "SELECT name FROM singer"),
                reply("comment line before sql in block", "```sql\n-- names of singers\nSELECT name FROM singer\n```",
                        "SELECT name FROM singer"),

                // reasoning blocks
                reply("think block", "<think>\nThe user wants names. I'll SELECT name FROM singer.\n</think>\n\nSELECT name FROM singer",
                        "SELECT name FROM singer"),
                reply("thinking block", "<thinking>We need a count.</thinking>\n```sql\nSELECT count(*) FROM singer\n```",
                        "SELECT count(*) FROM singer"),
                reply("upper-case think tags", "<THINK>hmm</THINK>SELECT 1", "SELECT 1"),
                reply("closing tag only (template opened it)",
                        "Okay, the question asks for names... SELECT maybe.\n</think>\n\nSELECT name FROM singer",
                        "SELECT name FROM singer"),
                reply("unclosed think at the start", "<think>\nLet me see, the table is singer.\n\nSELECT name FROM singer",
                        "SELECT name FROM singer"),
                reply("two think blocks", "<think>a</think>\n<think>b</think>\nSELECT 2", "SELECT 2"),

                // end-of-sequence and template tokens
                reply("</s>", "SELECT name FROM singer</s>", "SELECT name FROM singer"),
                reply("eot_id", "SELECT name FROM singer;<|eot_id|>", "SELECT name FROM singer"),
                reply("im_end then a hallucinated turn", "SELECT name FROM singer<|im_end|>\n<|im_start|>user\nthanks",
                        "SELECT name FROM singer"),
                reply("endoftext", "SELECT 1<|endoftext|>", "SELECT 1"),
                reply("end", "SELECT 1 <|end|>", "SELECT 1"),
                reply("template start tokens", "<|im_start|>assistant\nSELECT 1<|im_end|>", "SELECT 1"),
                reply("deepseek end of sentence", "SELECT 1<｜end▁of▁sentence｜>", "SELECT 1"),
                reply("llama header tokens", "<|start_header_id|>assistant<|end_header_id|>\n\nSELECT 1<|eot_id|>", "SELECT 1"),
                reply("leading <s>", "<s> SELECT 1 </s>", "SELECT 1"),

                // English preambles and labels
                reply("sure preamble", "Sure! Here is the query:\nSELECT name FROM singer", "SELECT name FROM singer"),
                reply("to answer this... select in prose",
                        "To answer this, we need to select the names from the singer table where the age is over 20.\n\nSELECT name FROM singer WHERE age > 20",
                        "SELECT name FROM singer WHERE age > 20"),
                reply("capitalised Select in prose", "Select the singers from France:\nSELECT name FROM singer WHERE country = 'France'",
                        "SELECT name FROM singer WHERE country = 'France'"),
                reply("SELECT clause mentioned in prose",
                        "The SELECT clause picks columns from the table. Here it is:\nSELECT name FROM singer",
                        "SELECT name FROM singer"),
                reply("SQL label", "SQL: SELECT name FROM singer", "SELECT name FROM singer"),
                reply("Query label lower-case sql", "Query: select name from singer", "select name from singer"),
                reply("label on its own line", "SQL:\nSELECT name FROM singer", "SELECT name FROM singer"),
                reply("bold label", "**SQL Query:**\n\nSELECT name FROM singer", "SELECT name FROM singer"),
                reply("answer tag", "<sql>SELECT name FROM singer</sql>", "SELECT name FROM singer"),
                reply("answer tag on lines", "<answer>\nSELECT name FROM singer\n</answer>", "SELECT name FROM singer"),
                reply("language word line", "sql\nSELECT name FROM singer", "SELECT name FROM singer"),
                reply("draft in prose, final on its own line",
                        "First I tried SELECT name FROM singers but the table is singer. The final query is:\nSELECT name FROM singer",
                        "SELECT name FROM singer"),
                reply("inline sql in prose keeps the rest of its line (a known limit)",
                        "You can use SELECT count(*) FROM singer to count them.",
                        "SELECT count(*) FROM singer to count them"),

                // Chinese preambles and explanations
                reply("chinese preamble", "好的，首先我需要分析用户的问题……用户想知道歌手的名字。\n\nSELECT PART_NAME_C FROM VIEW_PART_USER_HISTORY",
                        "SELECT PART_NAME_C FROM VIEW_PART_USER_HISTORY"),
                reply("chinese label with full-width colon", "以下是SQL：\nSELECT name FROM singer；", "SELECT name FROM singer"),
                reply("chinese label same line", "SQL语句如下：SELECT name FROM singer", "SELECT name FROM singer"),
                reply("chinese explanation after", "SELECT name FROM singer WHERE age > 20\n\n解释：这个查询返回年龄大于20的歌手。",
                        "SELECT name FROM singer WHERE age > 20"),
                reply("chinese explanation right after", "SELECT name FROM singer\n该查询返回所有歌手的名字", "SELECT name FROM singer"),
                reply("chinese literal kept", "SELECT name FROM city WHERE province = '广东省'",
                        "SELECT name FROM city WHERE province = '广东省'"),
                reply("SELECT glued to chinese is prose", "我们使用SELECT语句查询。\nSELECT name FROM singer", "SELECT name FROM singer"),

                // trailing explanations
                reply("explanation paragraph", "SELECT name FROM singer\n\nThis query returns every singer's name.",
                        "SELECT name FROM singer"),
                reply("explanation right after", "SELECT name FROM singer\nThis query returns every singer's name.",
                        "SELECT name FROM singer"),
                reply("explanation label", "SELECT name FROM singer\n\nExplanation:\n- We select the name column.",
                        "SELECT name FROM singer"),
                reply("markdown heading", "SELECT name FROM singer\n\n### Explanation\nIt reads singer.", "SELECT name FROM singer"),
                reply("note after semicolon on the same line", "SELECT name FROM singer; This returns all the names.",
                        "SELECT name FROM singer"),
                reply("In this query...", "SELECT a FROM t\nIn this query, we read a.", "SELECT a FROM t"),
                reply("I hope this helps", "SELECT a FROM t\n\nI hope this helps!", "SELECT a FROM t"),
                reply("bullet list after", "SELECT a FROM t\n\n- `a` is the column\n- `t` is the table", "SELECT a FROM t"),
                reply("keyword lines are not prose", "SELECT name\nFROM singer\nWhere age > 20\nOrder by name",
                        "SELECT name\nFROM singer\nWhere age > 20\nOrder by name"),
                reply("sql comment kept for the guard", "SELECT name FROM singer -- all of them",
                        "SELECT name FROM singer -- all of them"),

                // wrapping quotes
                reply("double-quoted", "\"SELECT name FROM singer\"", "SELECT name FROM singer"),
                reply("double-quoted with inner literal", "\"SELECT name FROM singer WHERE country = \"France\"\"",
                        "SELECT name FROM singer WHERE country = \"France\""),
                reply("single-quoted", "'SELECT name FROM singer'", "SELECT name FROM singer"),
                reply("backtick-wrapped line", "`SELECT name FROM singer`", "SELECT name FROM singer"),
                reply("backtick-wrapped with mysql identifiers", "`SELECT `name` FROM singer`", "SELECT `name` FROM singer"),
                reply("inline code in a sentence", "The query is: `SELECT name FROM singer`.", "SELECT name FROM singer"),
                reply("quoted in a sentence", "The query is \"SELECT name FROM singer\" and it returns names.",
                        "SELECT name FROM singer"),
                reply("smart quotes", "“SELECT name FROM singer”", "SELECT name FROM singer"),
                reply("bold sql", "**SELECT name FROM singer**", "SELECT name FROM singer"),
                reply("quoted with semicolon inside", "\"SELECT name FROM singer;\"", "SELECT name FROM singer"),
                reply("mysql identifiers are not a wrapper", "SELECT `name` FROM `singer`", "SELECT `name` FROM `singer`"),
                reply("sql in prose parentheses", "The subquery (SELECT max(age) FROM singer) gives the oldest.",
                        "SELECT max(age) FROM singer"),

                // JSON replies
                reply("json object", "{\"sql\": \"SELECT name FROM singer\"}", "SELECT name FROM singer"),
                reply("json with escapes", "{\"sql\": \"SELECT name\\nFROM singer\\nWHERE country = \\\"France\\\";\"}",
                        "SELECT name\nFROM singer\nWHERE country = \"France\""),
                reply("json with other fields first", "{\"reasoning\": \"names of singers\", \"sql\": \"SELECT name FROM singer\"}",
                        "SELECT name FROM singer"),
                reply("json in a json fence", "```json\n{\n  \"sql\": \"SELECT name FROM singer\",\n  \"explanation\": \"all\"\n}\n```",
                        "SELECT name FROM singer"),
                reply("json with raw newline", "{\"sql\": \"SELECT name\nFROM singer\"}", "SELECT name\nFROM singer"),
                reply("json single quotes", "{'sql': 'SELECT name FROM singer'}", "SELECT name FROM singer"),
                reply("json key query", "{\"query\": \"SELECT 1\"}", "SELECT 1"),
                reply("json embedded in prose", "Here you go: {\"sql\": \"SELECT name FROM singer\"} Enjoy!",
                        "SELECT name FROM singer"),
                reply("json with unescaped inner quotes", "{\"sql\": \"SELECT * FROM t WHERE name = \"Bob\"\"}",
                        "SELECT * FROM t WHERE name = \"Bob\""),
                reply("json value with fence and semicolon", "{\"sql\": \"```sql\\nSELECT 1;\\n```\"}", "SELECT 1"),
                reply("json value lower-case bare", "{\"sql\": \"select name\"}", "select name"),
                reply("json nested", "{\"result\": {\"sql\": \"SELECT 1\"}}", "SELECT 1"),
                reply("json without sql key but sql value", "{\"answer\": \"SELECT name FROM singer\"}", "SELECT name FROM singer"),

                // statements that must reach the guard whole
                reply("stacked statements kept", "SELECT name FROM singer; DROP TABLE singer;",
                        "SELECT name FROM singer; DROP TABLE singer"),
                reply("stacked on new lines kept", "SELECT name FROM singer;\n\nDELETE FROM singer",
                        "SELECT name FROM singer;\n\nDELETE FROM singer"),
                reply("stacked without semicolon kept", "SELECT 1\nDROP TABLE singer", "SELECT 1\nDROP TABLE singer"),
                reply("delete is passed on, not its subquery", "DELETE FROM singer WHERE id IN (SELECT id FROM concert)",
                        "DELETE FROM singer WHERE id IN (SELECT id FROM concert)"),
                reply("delete over lines is passed on", "DELETE FROM singer\nWHERE id IN (\n  SELECT id FROM concert\n)",
                        "DELETE FROM singer\nWHERE id IN (\n  SELECT id FROM concert\n)"),
                reply("drop table", "```sql\nDROP TABLE singer;\n```", "DROP TABLE singer"),
                reply("update", "UPDATE singer SET age = 0", "UPDATE singer SET age = 0"),
                reply("insert", "Sure:\ninsert into singer values (1)", "insert into singer values (1)"),
                reply("union kept whole", "SELECT a FROM t\nUNION\nSELECT b FROM u", "SELECT a FROM t\nUNION\nSELECT b FROM u"),
                reply("subquery on its own line stays inside", "SELECT name FROM singer WHERE age > (\n  SELECT avg(age) FROM singer\n)",
                        "SELECT name FROM singer WHERE age > (\n  SELECT avg(age) FROM singer\n)"),
                reply("explain kept", "EXPLAIN SELECT 1", "EXPLAIN SELECT 1"),
                reply("chinese identifiers", "SELECT 姓名 FROM 学生 WHERE 年龄 > 20", "SELECT 姓名 FROM 学生 WHERE 年龄 > 20"),
                reply("note label after", "Here is the query.\nSELECT a FROM t\nNote: the column a is the name.", "SELECT a FROM t"),
                reply("prose inside a literal kept", "SELECT a FROM t WHERE b LIKE '%This query is great.%'",
                        "SELECT a FROM t WHERE b LIKE '%This query is great.%'"),
                reply("keyword alone on its line", "SELECT\n  a,\n  b\nFROM\n  t", "SELECT\n  a,\n  b\nFROM\n  t"),
                reply("only the first sql block", "```sql\nSELECT a FROM t\n```\n```sql\nDROP TABLE t\n```", "SELECT a FROM t"),
                reply("indented code", "Answer:\n\n    SELECT a\n    FROM t", "SELECT a\n    FROM t"),
                reply("numbered answer", "1. SELECT a FROM t", "SELECT a FROM t"),
                reply("inline start keeps its subquery line", "The answer is SELECT a FROM t WHERE b IN (\nSELECT b FROM u)",
                        "SELECT a FROM t WHERE b IN (\nSELECT b FROM u)"),
                reply("lower-case select after a colon in prose", "Note: select carefully.\nSELECT a FROM t", "SELECT a FROM t"),
                reply("postgres cast is not a label", "SELECT a::int FROM t", "SELECT a::int FROM t"),
                reply("duckdb struct literal", "SELECT {'name': name, n: 1} AS s FROM t",
                        "SELECT {'name': name, n: 1} AS s FROM t"),
                reply("duckdb lambda and sample", "```sql\nSELECT list_transform(l, lambda x: x + 1) FROM t USING SAMPLE 10%\n```",
                        "SELECT list_transform(l, lambda x: x + 1) FROM t USING SAMPLE 10%"),
                reply("crlf line ends", "```sql\r\nSELECT a\r\nFROM t;\r\n```\r\n", "SELECT a\r\nFROM t"),
                reply("window function", "SELECT name, rank() OVER (PARTITION BY country ORDER BY age DESC) AS r FROM singer",
                        "SELECT name, rank() OVER (PARTITION BY country ORDER BY age DESC) AS r FROM singer"),
                reply("stacked after explanation-looking text stays", "SELECT 1; -- ok\nDROP TABLE t", "SELECT 1; -- ok\nDROP TABLE t"));
    }

    /** A statement that is not one query is passed on whole, never cut down to the query inside it. */
    static Stream<Arguments> notQueries() {
        return Stream.of(
                reply("copy of a query", "COPY (SELECT region FROM sales) TO 'out.csv'",
                        "COPY (SELECT region FROM sales) TO 'out.csv'"),
                reply("copy in a fence after prose", "Here you go:\n```sql\nCOPY (SELECT region FROM sales) TO 'out.csv';\n```",
                        "COPY (SELECT region FROM sales) TO 'out.csv'"),
                reply("copy in lower case", "copy (select region from sales) to 'out.csv'",
                        "copy (select region from sales) to 'out.csv'"),
                reply("copy inside prose", "Run COPY (SELECT region FROM sales) TO 'out.csv'",
                        "COPY (SELECT region FROM sales) TO 'out.csv'"),
                reply("copy over lines", "COPY (\n  SELECT region FROM sales\n) TO 'out.csv' (FORMAT csv)",
                        "COPY (\n  SELECT region FROM sales\n) TO 'out.csv' (FORMAT csv)"),
                reply("copy in json", "{\"sql\": \"COPY (SELECT region FROM sales) TO 'out.csv'\"}",
                        "COPY (SELECT region FROM sales) TO 'out.csv'"),
                reply("attach then select", "ATTACH 'other.db' AS o; SELECT region FROM sales",
                        "ATTACH 'other.db' AS o; SELECT region FROM sales"),
                reply("install", "INSTALL httpfs", "INSTALL httpfs"),
                reply("install then select", "INSTALL httpfs;\nSELECT region FROM sales", "INSTALL httpfs;\nSELECT region FROM sales"),
                reply("force install", "FORCE INSTALL httpfs", "FORCE INSTALL httpfs"),
                reply("load", "LOAD httpfs; SELECT 1", "LOAD httpfs; SELECT 1"),
                reply("pragma then select", "PRAGMA enable_profiling; SELECT region FROM sales",
                        "PRAGMA enable_profiling; SELECT region FROM sales"),
                reply("export database", "EXPORT DATABASE 'dump'", "EXPORT DATABASE 'dump'"),
                reply("reset", "RESET search_path; SELECT 1", "RESET search_path; SELECT 1"),
                reply("a file as a table", "SELECT secret FROM 'data/secret.csv'", "SELECT secret FROM 'data/secret.csv'"),
                reply("a url as a table", "```sql\nSELECT * FROM 'https://example.com/x.parquet'\n```",
                        "SELECT * FROM 'https://example.com/x.parquet'"),
                reply("create table as", "CREATE TABLE t AS (SELECT region FROM sales)",
                        "CREATE TABLE t AS (SELECT region FROM sales)"),
                reply("insert of a query", "INSERT INTO t (SELECT region FROM sales)", "INSERT INTO t (SELECT region FROM sales)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("notQueries")
    void aStatementThatIsNotOneQueryIsPassedOnWhole(String name, String reply, String expected) {
        assertThat(sqlOf(reply)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("replies")
    void cleansARealLookingReplyToOneStatement(String name, String reply, String expected) {
        assertThat(sqlOf(reply)).isEqualTo(expected);
    }

    static Stream<Arguments> repliesWithoutSql() {
        return Stream.of(
                reply("null", null, "empty"),
                reply("empty", "", "empty"),
                reply("blank", " \n\t ", "empty"),
                reply("refusal", "I'm sorry, but I can't help with that request.", "no SQL query found"),
                reply("prose mentioning select", "We select the names from the singer table and order them.",
                        "no SQL query found"),
                reply("capitalised prose", "Select the best option from the list below.", "no SQL query found"),
                reply("chinese prose", "抱歉，我无法回答这个问题。", "no SQL query found"),
                reply("only reasoning", "<think>SELECT name FROM singer maybe</think>", "only reasoning"),
                reply("only tokens", "<|im_end|>", "tokens"),
                reply("json without sql", "{\"error\": \"cannot answer\"}", "without an \"sql\" field"),
                reply("json with null sql", "{\"sql\": null, \"reason\": \"ambiguous\"}", "null"),
                reply("json with empty sql", "{\"sql\": \"\"}", "empty"),
                reply("truncated json", "{\"sql\": \"SELECT name FROM", "cut off"),
                reply("json with prose in sql", "{\"sql\": \"I do not know\"}", "holds no SQL"),
                reply("fence without sql", "```\nhello\n```", "code blocks"),
                reply("select with a colon", "SELECT: the best singer", "no SQL query found"),
                reply("select word alone", "SELECT", "no SQL query found"),
                reply("bare select list in prose", "select name", "no SQL query found"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("repliesWithoutSql")
    void reportsWhyAReplyHoldsNoSql(String name, String reply, String problem) {
        Cleaned c = cleaner.clean(reply);

        assertThat(c.sql()).as("problem: %s", c.problem()).isEmpty();
        assertThat(c.problem()).contains(problem);
    }

    /** A comment is a space to SQL: a commented query is found whole, never cut after its comment. */
    @Test
    void commentedQueriesAreFoundWhole() {
        for (String sql : List.of(
                "WITH /* c */ q AS (SELECT 1) SELECT * FROM q",
                "WITH -- totals per dept\nq AS (SELECT 1) SELECT * FROM q",
                "WITH q AS ( -- the rows\n SELECT 1 /* one */) -- then\nSELECT * FROM q",
                "SELECT name /* the display name */, dept FROM people -- every department\nWHERE score > 10")) {
            assertThat(cleaner.clean(sql).sql()).as(sql).contains(sql);
            assertThat(cleaner.clean("Here is the query:\n```sql\n" + sql + "\n```").sql()).as(sql).contains(sql);
        }
        assertThat(cleaner.clean("We select the names /* not sql */ from the table.").sql()).isEmpty();
    }

    @Test
    void leavesEveryRealPredictionUnchanged() throws IOException {
        Path dir = Path.of(System.getProperty("sqlagent.projectRoot", "."))
                .resolve("../shared/data/spider-dev/predictions").normalize();
        Assumptions.assumeTrue(Files.isDirectory(dir), "no predictions at " + dir);
        List<String> predictions = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList()) {
                for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                    if (!line.isBlank()) {
                        predictions.add(field(line, "predicted_sql"));
                    }
                }
            }
        }
        List<String> changed = new ArrayList<>();
        for (String sql : predictions) {
            String expected = sql.strip();
            while (expected.endsWith(";")) {
                expected = expected.substring(0, expected.length() - 1).strip();
            }
            Cleaned c = cleaner.clean(sql);
            if (!c.sql().equals(java.util.Optional.of(expected))) {
                changed.add(sql + " -> " + c);
            }
        }

        assertThat(predictions).hasSize(2_916);
        assertThat(changed).isEmpty();
    }

    private static String field(String jsonLine, String name) throws IOException {
        try (JsonParser p = new JsonFactory().createParser(jsonLine)) {
            p.nextToken();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                p.nextToken();
                if (f.equals(name)) {
                    return p.getText();
                }
                p.skipChildren();
            }
        }
        throw new IllegalArgumentException("no " + name + " in " + jsonLine);
    }

    @Test
    void neverThrowsOnRandomText() {
        String[] pieces = {"SELECT", "select", "WITH", " ", "\n", "\n\n", "(", ")", "'", "\"", "`", "```", "```sql\n",
            ";", ":", "：", "{", "}", "\"sql\"", "<think>", "</think>", "<|im_end|>", "</s>", "<|", "|>", "FROM", "from",
            "t", "name", "AS", "x AS (", "--", "/*", "*/", "**", "好的，", "解释：", "This query", ".", ",", "*", "1",
            "\\", "\u0000", "\uD83D\uDE00", "\uD800", "DELETE", "DROP TABLE", "[", "]", "<sql>", "</sql>", "…"};
        Random random = new Random(42);
        for (int round = 0; round < 20_000; round++) {
            StringBuilder sb = new StringBuilder();
            int len = random.nextInt(40);
            for (int i = 0; i < len; i++) {
                if (random.nextInt(5) == 0) {
                    sb.append((char) random.nextInt(0x3100));
                } else {
                    sb.append(pieces[random.nextInt(pieces.length)]);
                }
            }
            String input = sb.toString();
            Cleaned c = cleaner.clean(input);
            assertThat(c.sql().isPresent() != c.problem().isEmpty()).as("exactly one of sql/problem for %s", input)
                    .isFalse();
            c.sql().ifPresent(sql -> assertThat(sql).as(input).isNotBlank().isEqualTo(sql.strip()).doesNotEndWith(";"));
            assertThat(c.problem()).doesNotContain("could not be read");
        }
    }

    static Stream<Arguments> hugeInputs() {
        int mb = 1 << 20;
        return Stream.of(
                Arguments.of("select words", repeat("SELECT ", mb)),
                Arguments.of("lower select words", repeat("\nselect a b c ", mb)),
                Arguments.of("open parentheses", "SELECT " + repeat("(", mb)),
                Arguments.of("fences", repeat("```", mb)),
                Arguments.of("fences with newlines", repeat("```sql\n", mb)),
                Arguments.of("think tags", repeat("<think>", mb)),
                Arguments.of("closing think tags", repeat("</think>", mb)),
                Arguments.of("template tokens", repeat("<|im_start|>", mb)),
                Arguments.of("json keys", repeat("{\"sql\": ", mb)),
                Arguments.of("quotes", "SELECT " + repeat("'\"`", mb)),
                Arguments.of("semicolons", "SELECT 1" + repeat("; ", mb)),
                Arguments.of("semicolons and prose", repeat("SELECT a FROM t; This is it.\n", mb)),
                Arguments.of("long select list", "SELECT " + repeat("a, ", mb) + " FROM t"),
                Arguments.of("one long word", "SELECT " + repeat("a", mb)),
                Arguments.of("letters then select", repeat("a", mb) + "\nSELECT 1"),
                Arguments.of("update words", repeat("UPDATE s ", mb)),
                Arguments.of("with words", repeat("WITH x AS ", mb)),
                Arguments.of("chinese", repeat("好的，我需要分析", mb) + "\nSELECT 1"),
                Arguments.of("newlines", "SELECT a\n" + repeat("\n", mb)),
                Arguments.of("prose lines", "SELECT a FROM t\n" + repeat("from t where\n", mb)),
                Arguments.of("bold and quotes", "**\"`SELECT a FROM t" + repeat(" `x`", mb / 4)),
                Arguments.of("random", randomText(mb)));
    }

    private static String repeat(String s, int chars) {
        return s.repeat(Math.max(1, chars / s.length()));
    }

    private static String randomText(int chars) {
        Random r = new Random(7);
        StringBuilder sb = new StringBuilder(chars);
        String alphabet = "SELECT FROM select from ()'\"`;:\n{}<>|/think sql 好的，：*-.";
        while (sb.length() < chars) {
            sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
        }
        return sb.toString();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hugeInputs")
    void cleansAMegabyteInputInLinearTime(String name, String input) {
        // a guard against quadratic or exponential blow-ups, not a benchmark: linear work takes milliseconds
        // (seconds on a loaded machine), quadratic work on a megabyte hours; the bound only catches those
        Cleaned c = assertTimeoutPreemptively(Duration.ofMinutes(2), () -> cleaner.clean(input));

        assertThat(c.sql().isPresent() || !c.problem().isEmpty()).isTrue();
    }
}
