package dev.sqlagent.eval;

import dev.sqlagent.SqlAgent;
import dev.sqlagent.execution.JdbcSqlExecutor;
import dev.sqlagent.execution.SqlExecutor;
import dev.sqlagent.guard.GuardPolicy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/** Two small SQLite databases in a directory, and the questions, predictions and agents over them. */
final class SqliteFixture {

    final Path dir;

    SqliteFixture(Path dir) throws SQLException {
        this.dir = dir;
        create("music", "CREATE TABLE singer (id INTEGER PRIMARY KEY, name TEXT, age INTEGER, country TEXT)",
                "INSERT INTO singer VALUES (1, 'Ann', 52, 'France'), (2, 'Bob', 29, 'Spain'), (3, 'Cid', 41, 'France'),"
                        + " (4, 'Dee', 35, 'Italy')");
        create("zoo", "CREATE TABLE animal (id INTEGER PRIMARY KEY, name TEXT, legs INTEGER)",
                "INSERT INTO animal VALUES (1, 'cat', 4), (2, 'hen', 2), (3, 'dog', 4), (4, 'ant', 6)");
    }

    private void create(String db, String... sql) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(db + ".sqlite"));
                Statement st = c.createStatement()) {
            for (String s : sql) {
                st.executeUpdate(s);
            }
        }
    }

    DataSource dataSource(String db) {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        SQLiteDataSource ds = new SQLiteDataSource(config);
        ds.setUrl("jdbc:sqlite:" + dir.resolve(db + ".sqlite"));
        return ds;
    }

    SqlExecutor goldExecutor(String db) {
        return JdbcSqlExecutor.builder(dataSource(db)).maxRows(100_000).build();
    }

    SqlAgent agent(String db, List<EvalQuestion> questions, List<PredictionFile> files) {
        return SqlAgent.builder().llm(ReplayLlm.create(db, questions, files)).dataSource(dataSource(db))
                .policy(GuardPolicy.builder().allowTables(db.equals("music") ? "singer" : "animal")
                        .allowSelectStar(true).build())
                .candidates(files.size()).build();
    }

    /** Ten questions over both databases with gold SQL; ids q0..q9. */
    static List<EvalQuestion> questions() {
        List<EvalQuestion> qs = new ArrayList<>();
        String[][] rows = {
            {"music", "How many singers are there?", "SELECT count(*) FROM singer"},
            {"music", "Names of singers from France?", "SELECT name FROM singer WHERE country = 'France'"},
            {"music", "Singers ordered by age?", "SELECT name FROM singer ORDER BY age"},
            {"music", "Average age?", "SELECT avg(age) FROM singer"},
            {"music", "Singers older than 40?", "SELECT name FROM singer WHERE age > 40"},
            {"zoo", "How many animals?", "SELECT count(*) FROM animal"},
            {"zoo", "Animals with 4 legs?", "SELECT name FROM animal WHERE legs = 4"},
            {"zoo", "Most legs?", "SELECT max(legs) FROM animal"},
            {"zoo", "All animals?", "SELECT * FROM animal"},
            {"zoo", "Names sorted?", "SELECT name FROM animal ORDER BY name"},
        };
        for (int i = 0; i < rows.length; i++) {
            qs.add(new EvalQuestion("q" + i, rows[i][1], rows[i][2], rows[i][0], "", i < 5 ? "music" : "zoo"));
        }
        return qs;
    }
}
