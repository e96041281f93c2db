package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.AgentResult;
import dev.sqlagent.Dialect;
import dev.sqlagent.SqlAgent;
import dev.sqlagent.execution.UrlDataSource;
import dev.sqlagent.guard.engine.PrivilegeReport;
import dev.sqlagent.testing.DatabaseServer;
import dev.sqlagent.testkit.ScriptedLlm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The least-privilege set-up {@code docs/security.md} recommends, on the full default path (engine check on):
 * a login with exactly the policy's grants — column grants on the tables with denied columns, and on
 * PostgreSQL row-level security for the row filters — is the agent's only login (catalog, engine check,
 * execution), on MariaDB with the planning login the guide gives the engine check. Two twin databases of
 * {@link HostileFixture}'s schema (own names, {@code grants_lp_a}/{@code grants_lp_b}), plus an allowed view
 * over {@code people}'s allowed columns, and the logins {@code grants_reader} (and {@code grants_planner}) are
 * created for the test and dropped after it.
 *
 * <p>Judged: every statement of the legitimate corpora ({@code legit-heldout/<engine>.sql},
 * {@code hostile-legit/<engine>.sql} and statements on the view) that the agent answers with the
 * administrator's login is answered with the same rows with the least-privilege login (a refusal or an
 * error there is caused by the login); {@code agent.audit()} reports least privilege; and the hostile
 * corpus ({@link HostileAttacks}) run with that login escapes nothing ({@link HostileFullPathTest#judge}).
 * Each engine prints {@code LEAST-PRIVILEGE <engine>: …} and every difference.
 */
class LeastPrivilegeLoginTest {

    static final String READER = "grants_reader";
    static final String PLANNER = "grants_planner";
    static final String PREFIX = "grants_lp_";
    static final String VIEW = "people_public";

    /** Statements on the allowed view (a view a host allows: its columns are all allowed). */
    static final List<String> VIEW_STATEMENTS = List.of(
            "SELECT name, dept FROM " + VIEW + " WHERE dept = 'eng' ORDER BY name",
            "SELECT v.dept, count(*) AS n FROM " + VIEW + " v GROUP BY v.dept ORDER BY v.dept",
            "SELECT v.name, o.amount FROM " + VIEW + " v JOIN orders o ON o.person_id = v.id ORDER BY o.amount",
            "SELECT name FROM " + VIEW + " WHERE id = 3",
            "SELECT name FROM " + VIEW + " WHERE id IN (SELECT person_id FROM orders WHERE amount > 20) ORDER BY name");

    @Test
    void onMariadbTheColumnGrantLoginRunsEveryAllowedStatement() throws Exception {
        run(Dialect.MARIADB);
    }

    @Test
    void onPostgresqlTheColumnGrantLoginRunsEveryAllowedStatement() throws Exception {
        run(Dialect.POSTGRESQL);
    }

    private static volatile boolean createdMariadb;
    private static volatile boolean createdPostgres;

    @AfterAll
    static void dropWhatWasCreated() throws SQLException {
        if (createdMariadb) {
            try (Connection c = DatabaseServer.mariadb().adminDataSource().getConnection();
                 Statement s = c.createStatement()) {
                for (String db : List.of(PREFIX + "a", PREFIX + "b")) {
                    s.execute("DROP DATABASE IF EXISTS " + db);
                }
                for (String twin : List.of("_a", "_b")) {
                    s.execute("DROP USER IF EXISTS '" + READER + twin + "'@'%'");
                    s.execute("DROP USER IF EXISTS '" + PLANNER + twin + "'@'%'");
                }
            }
        }
        if (createdPostgres) {
            try (Connection c = DatabaseServer.postgres().adminDataSource().getConnection();
                 Statement s = c.createStatement()) {
                for (String db : List.of(PREFIX + "a", PREFIX + "b")) {
                    s.execute("DROP DATABASE IF EXISTS " + db + " WITH (FORCE)");
                }
                s.execute("DROP ROLE IF EXISTS " + READER);
            }
        }
    }

    /** The twins as the administrator ({@code admin}) and as the least-privilege login ({@code least}). */
    private record Logins(HostileFixture.Twins admin, HostileFixture.Twins least, DataSource[] planners) {
    }

    /**
     * Why MariaDB needs the planning login, and that it plans nothing the run login may not read: without it
     * the check refuses (fail closed) and says what to do; with it, a statement naming a denied column (as if
     * the guard had been bypassed) fails with the run login's own error before the planner sees it; a planner on
     * another database is refused.
     */
    @Test
    void onMariadbThePlanningLoginPlansOnlyWhatTheRunLoginMayRead() throws Exception {
        Logins logins = logins(Dialect.MARIADB);
        GuardPolicy policy = HostileFixture.policy(Dialect.MARIADB, FunctionPolicy.standard());
        ScriptedLlm model = ScriptedLlm.create().fallback(r -> dev.sqlagent.llm.LlmResponse.of(
                "SELECT name FROM people WHERE id = 3"));
        // the login does not see the denied columns (MariaDB hides what a column grant leaves out), so without a
        // planning login the agent cannot even resolve its policy, and says what to do
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> SqlAgent.builder().llm(model)
                        .dataSource(logins.least().a()).dialect(Dialect.MARIADB).policy(policy).build())
                .isInstanceOf(dev.sqlagent.guard.PolicyResolutionException.class)
                .hasMessageContaining("planningDataSource");
        // with the policy's denials left out, the build goes on, and the engine check refuses (the trace is
        // hidden from this login) and names the option
        GuardPolicy allowOnly = GuardPolicy.builder().allowTables("people", "pets", "orders")
                .functionPolicy(FunctionPolicy.standard()).build();
        try (SqlAgent alone = SqlAgent.builder().llm(model).dataSource(logins.least().a()).dialect(Dialect.MARIADB)
                .policy(allowOnly).build()) {
            AgentResult r = alone.ask(HostileFullPath.QUESTION);
            assertThat(r).isInstanceOf(AgentResult.Rejected.class);
            assertThat(((AgentResult.Rejected) r).violations().get(0).message())
                    .contains("optimizer trace").contains("planningDataSource");
        }

        dev.sqlagent.guard.engine.EngineCheck check = dev.sqlagent.guard.engine.EngineCheck.create(logins.least().a(),
                Dialect.MARIADB).plannedBy(logins.planners()[0]);
        // the guard would refuse this; the check is asked as if a parser differential had let it through
        String bypass = "SELECT ssn FROM people WHERE id = 1";
        GuardVerdict.Accepted accepted = new GuardVerdict.Accepted(bypass, dev.sqlagent.execution.SqlStatement.of(bypass),
                Set.of("people"), Set.of("people.name"));
        dev.sqlagent.guard.engine.EngineVerdict v = check.check(accepted, policy);
        System.out.println("LEAST-PRIVILEGE mariadb denied column, planned: " + v);
        assertThat(v).isInstanceOf(dev.sqlagent.guard.engine.EngineVerdict.Unavailable.class);
        assertThat(((dev.sqlagent.guard.engine.EngineVerdict.Unavailable) v).error().message())
                .contains(READER + "_a").contains("ssn");

        String fine = "SELECT name FROM people WHERE id = 1";
        GuardVerdict.Accepted ok = new GuardVerdict.Accepted(fine, dev.sqlagent.execution.SqlStatement.of(fine),
                Set.of("people"), Set.of("people.name"));
        assertThat(check.check(ok, policy)).isInstanceOf(dev.sqlagent.guard.engine.EngineVerdict.Confirmed.class);
        dev.sqlagent.guard.engine.EngineReading reading = check.read(dev.sqlagent.execution.SqlStatement.of(fine));
        assertThat(reading.unreadable()).isEmpty();
        assertThat(reading.describe()).contains("name");
        dev.sqlagent.guard.engine.EngineVerdict elsewhere = dev.sqlagent.guard.engine.EngineCheck.create(
                logins.least().a(), Dialect.MARIADB).plannedBy(logins.planners()[1]).check(ok, policy);
        assertThat(elsewhere).isInstanceOf(dev.sqlagent.guard.engine.EngineVerdict.Disagreement.class);
        assertThat(((dev.sqlagent.guard.engine.EngineVerdict.Disagreement) elsewhere).reasons().get(0))
                .contains("planning login");
    }

    private static final java.util.Map<Dialect, Logins> LOGINS = new java.util.EnumMap<>(Dialect.class);

    private static synchronized Logins logins(Dialect d) throws Exception {
        Logins l = LOGINS.get(d);
        if (l == null) {
            l = d == Dialect.MARIADB ? mariadb() : postgres();
            LOGINS.put(d, l);
        }
        return l;
    }

    private static void run(Dialect d) throws Exception {
        Logins logins = logins(d);
        String engine = d.name().toLowerCase(Locale.ROOT);
        GuardPolicy policy = HostileFixture.policy(d, FunctionPolicy.standard()).toBuilder().allowTables(VIEW).build();
        java.util.function.BiConsumer<Integer, SqlAgent.Builder> settings = (w, b) -> {
            if (logins.planners() != null) {
                b.planningDataSource(logins.planners()[w]);
            }
        };
        Set<String> statements = new LinkedHashSet<>(LegitimateHeldOutTest.corpus(d));
        statements.addAll(LegitimateDialectSqlTest.corpus(d));
        statements.addAll(VIEW_STATEMENTS);
        List<String> differences = new ArrayList<>();
        int answered = 0;
        int filtered = 0;
        long adminNanos = 0;
        long leastNanos = 0;
        try (HostileFullPath admin = new HostileFullPath(logins.admin(), policy);
             HostileFullPath least = new HostileFullPath(logins.least(), policy, settings)) {
            for (String sql : statements) {
                long t0 = System.nanoTime();
                HostileFullPath.Outcome expected = admin.ask(0, sql);
                adminNanos += System.nanoTime() - t0;
                if (expected.status() != AgentResult.Status.ANSWERED) {
                    continue; // the legitimate suites account for these (parser limits)
                }
                answered++;
                long t1 = System.nanoTime();
                HostileFullPath.Outcome got = least.ask(0, sql);
                leastNanos += System.nanoTime() - t1;
                if (got.executed().stream().anyMatch(c -> c.sql().contains("pets") || c.sql().contains("orders"))) {
                    filtered++;
                }
                if (got.status() != AgentResult.Status.ANSWERED) {
                    differences.add("REFUSED-FOR-THE-LOGIN " + engine + " " + got.status() + ": " + sql + "\n    why: "
                            + HostileFullPathTest.firstLine(got.detail()));
                } else if (!got.rows().equals(expected.rows())) {
                    differences.add("OTHER-ROWS " + engine + ": " + sql + "\n    admin: "
                            + HostileFullPath.preview(expected.rows()) + "\n    least: " + HostileFullPath.preview(got.rows()));
                }
            }
        }
        System.out.printf("LEAST-PRIVILEGE %s: %d statements the administrator's login answers (%d on a filtered table), "
                + "%d not answered alike with the least-privilege login%n", engine, answered, filtered, differences.size());
        System.out.printf("LEAST-PRIVILEGE %s: %.2f ms a question with the administrator's login, %.2f ms with the "
                + "least-privilege login%s (answered ones, full path, engine check on)%n", engine,
                adminNanos / 1e6 / Math.max(1, answered), leastNanos / 1e6 / Math.max(1, answered),
                logins.planners() == null ? "" : " and its planning login");
        differences.forEach(System.out::println);

        PrivilegeReport report;
        ScriptedLlm model = ScriptedLlm.create().fallback(r -> dev.sqlagent.llm.LlmResponse.of("SELECT 1"));
        SqlAgent.Builder b = SqlAgent.builder().llm(model).dataSource(logins.least().a()).dialect(d).policy(policy);
        settings.accept(0, b);
        try (SqlAgent agent = b.build()) {
            report = agent.audit();
        }
        System.out.printf("LEAST-PRIVILEGE %s audit:%n%s%n", engine, report.toText());

        List<HostileAttacks.Attack> attacks = HostileAttacks.generate(d, logins.least().scratch());
        List<String> escapes = new ArrayList<>();
        int refused = 0;
        try (HostileFullPath least = new HostileFullPath(logins.least(), HostileFixture.policy(d,
                FunctionPolicy.standard()), settings)) {
            for (HostileAttacks.Attack attack : attacks) {
                HostileFullPath.Outcome a = least.ask(0, attack.sql());
                HostileFullPath.Outcome bo = least.ask(1, attack.sql());
                if (a.status() != AgentResult.Status.ANSWERED) {
                    refused++;
                }
                List<String> found = HostileFullPathTest.compress(HostileFullPathTest.judge(attack, a, bo));
                if (!found.isEmpty()) {
                    escapes.add("ESCAPE " + engine + " " + attack.cls() + ": " + String.join("; ", found) + "\n    sql: "
                            + attack.sql());
                }
            }
        }
        System.out.printf("LEAST-PRIVILEGE %s hostile: %d statements, %d not answered, %d escapes%n", engine,
                attacks.size(), refused, escapes.size());
        escapes.forEach(System.out::println);

        // a filtered table named with its schema or database: the row filter's fence names it alike
        String schema = d == Dialect.MARIADB ? PREFIX + "a" : "public";
        GuardPolicy qualified = GuardPolicy.builder().allowTables(schema + ".orders", schema + ".people")
                .denyColumn(schema + ".orders", "card").denyColumn(schema + ".people", "ssn")
                .denyColumn(schema + ".people", "salary")
                .rowFilter(schema + ".orders", "tenant", HostileFixture.ORDER_TENANT).build();
        String joined = "SELECT p.name, o.amount FROM " + schema + ".orders o JOIN " + schema + ".people p ON p.id = "
                + "o.person_id ORDER BY o.amount";
        ScriptedLlm writer = ScriptedLlm.create().fallback(r -> dev.sqlagent.llm.LlmResponse.of(joined));
        SqlAgent.Builder qb = SqlAgent.builder().llm(writer).dataSource(logins.least().a()).dialect(d).policy(qualified);
        settings.accept(0, qb);
        AgentResult qualifiedResult;
        try (SqlAgent agent = qb.build()) {
            qualifiedResult = agent.ask(HostileFullPath.QUESTION);
        }
        System.out.printf("LEAST-PRIVILEGE %s qualified: %s%n", engine, qualifiedResult.status()
                + (qualifiedResult instanceof AgentResult.Answered an ? " " + an.table().rows().size() + " rows"
                : " " + qualifiedResult));

        assertThat(qualifiedResult).as("a filtered table named with its schema").isInstanceOf(AgentResult.Answered.class);
        assertThat(((AgentResult.Answered) qualifiedResult).table().rows()).hasSize(8);
        assertThat(answered).as("the corpora must be answered by the administrator's login").isGreaterThan(100);
        assertThat(filtered).as("statements on the filtered tables").isGreaterThan(20);
        assertThat(differences).as("statements the least-privilege login does not run as the administrator's does")
                .isEmpty();
        assertThat(report.guardIsOnlyDefence()).as("audit of the least-privilege login:%n%s", report.toText()).isFalse();
        assertThat(report.writes()).isEmpty();
        assertThat(report.forbiddenTables()).isEmpty();
        assertThat(report.deniedColumns()).isEmpty();
        assertThat(report.notes()).as("the planning login is named, not audited")
                .anyMatch(n -> n.contains("planningDataSource") == (logins.planners() != null))
                .noneMatch(n -> logins.planners() == null && n.contains("planningDataSource"));
        assertThat(attacks).hasSizeGreaterThan(100);
        assertThat(escapes).as("hostile statements that escaped with the least-privilege login").isEmpty();
    }

    // ---------------------------------------------------------------- MariaDB

    private static Logins mariadb() throws Exception {
        DatabaseServer maria = DatabaseServer.mariadb().require();
        String user = env("SQLAGENT_MARIADB_USER", "root");
        String password = System.getenv().getOrDefault("SQLAGENT_MARIADB_PASSWORD", "");
        DataSource[] admin = new DataSource[2];
        DataSource[] least = new DataSource[2];
        DataSource[] planners = new DataSource[2];
        createdMariadb = true;
        try (Connection c = maria.adminDataSource().getConnection(); Statement s = c.createStatement()) {
            for (int w = 0; w < 2; w++) {
                // one pair of logins per twin, each granted its own database only, as a host's
                String reader = "'" + READER + "_" + "ab".charAt(w) + "'@'%'";
                String planner = "'" + PLANNER + "_" + "ab".charAt(w) + "'@'%'";
                s.execute("DROP USER IF EXISTS " + reader);
                s.execute("DROP USER IF EXISTS " + planner);
                // as docs/security.md recommends (a password in a real set-up)
                s.execute("CREATE USER " + reader + " WITH MAX_STATEMENT_TIME 30");
                s.execute("CREATE USER " + planner + " WITH MAX_STATEMENT_TIME 30");
                String db = PREFIX + "ab".charAt(w);
                s.execute("DROP DATABASE IF EXISTS " + db);
                s.execute("CREATE DATABASE " + db);
                s.execute("USE " + db);
                HostileFixture.create(c, Dialect.MARIADB, w);
                // the planning login is the view's definer: MariaDB hides the optimizer trace of a view from anyone
                // but its definer (or every one of an SQL SECURITY INVOKER view)
                s.execute("CREATE DEFINER = " + planner + " VIEW " + VIEW + " AS SELECT id, name, dept, city "
                        + "FROM people");
                // the run login: exactly the policy's columns
                s.execute("GRANT SELECT ON " + db + ".pets TO " + reader);
                s.execute("GRANT SELECT (id, name, dept, city, born, score) ON " + db + ".people TO " + reader);
                s.execute("GRANT SELECT (id, person_id, tenant, amount, placed, status) ON " + db + ".orders TO "
                        + reader);
                s.execute("GRANT SELECT ON " + db + "." + VIEW + " TO " + reader);
                // the planning login: table-level SELECT on the allowed tables and the view's, SHOW VIEW on the view
                for (String t : List.of("pets", "people", "orders")) {
                    s.execute("GRANT SELECT ON " + db + "." + t + " TO " + planner);
                }
                s.execute("GRANT SELECT, SHOW VIEW ON " + db + "." + VIEW + " TO " + planner);
                String url = HostileFixture.withDatabase(maria.url(), db) + (maria.url().contains("?") ? "&" : "?")
                        + "connectTimeout=5000";
                admin[w] = new UrlDataSource(url, user, password);
                least[w] = new UrlDataSource(url, READER + "_" + "ab".charAt(w), "");
                planners[w] = new UrlDataSource(url, PLANNER + "_" + "ab".charAt(w), "");
            }
        }
        Path scratch = Files.createTempDirectory("grants-lp");
        return new Logins(new HostileFixture.Twins(Dialect.MARIADB, admin[0], admin[1], least[0], scratch),
                new HostileFixture.Twins(Dialect.MARIADB, least[0], least[1], least[0], scratch), planners);
    }

    // ---------------------------------------------------------------- PostgreSQL

    private static Logins postgres() throws Exception {
        DatabaseServer pg = DatabaseServer.postgres().require();
        String user = env("SQLAGENT_PG_USER", "postgres");
        String password = System.getenv().getOrDefault("SQLAGENT_PG_PASSWORD", "");
        createdPostgres = true;
        try (Connection c = pg.adminDataSource().getConnection(); Statement s = c.createStatement()) {
            for (int w = 0; w < 2; w++) {
                s.execute("DROP DATABASE IF EXISTS " + PREFIX + "ab".charAt(w) + " WITH (FORCE)");
            }
            s.execute("DROP ROLE IF EXISTS " + READER);
            // as docs/security.md recommends (a password in a real set-up)
            s.execute("CREATE ROLE " + READER + " LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT");
            s.execute("ALTER ROLE " + READER + " SET default_transaction_read_only = on");
            s.execute("ALTER ROLE " + READER + " SET statement_timeout = '30s'");
            for (int w = 0; w < 2; w++) {
                s.execute("CREATE DATABASE " + PREFIX + "ab".charAt(w));
            }
        }
        DataSource[] admin = new DataSource[2];
        DataSource[] least = new DataSource[2];
        for (int w = 0; w < 2; w++) {
            String db = PREFIX + "ab".charAt(w);
            String url = HostileFixture.withDatabase(pg.url(), db) + (pg.url().contains("?") ? "&" : "?")
                    + "connectTimeout=5";
            admin[w] = new UrlDataSource(url, user, password);
            least[w] = new UrlDataSource(url, READER, "");
            try (Connection c = admin[w].getConnection(); Statement s = c.createStatement()) {
                HostileFixture.create(c, Dialect.POSTGRESQL, w);
                s.execute("CREATE VIEW " + VIEW + " AS SELECT id, name, dept, city FROM people");
                s.execute("REVOKE TEMP ON DATABASE " + db + " FROM PUBLIC");
                s.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC");
                s.execute("GRANT CONNECT ON DATABASE " + db + " TO " + READER);
                s.execute("GRANT USAGE ON SCHEMA public TO " + READER);
                s.execute("GRANT SELECT ON pets, " + VIEW + " TO " + READER);
                s.execute("GRANT SELECT (id, name, dept, city, born, score) ON people TO " + READER);
                s.execute("GRANT SELECT (id, person_id, tenant, amount, placed, status) ON orders TO " + READER);
                s.execute("ALTER TABLE pets ENABLE ROW LEVEL SECURITY");
                s.execute("CREATE POLICY pets_owner ON pets FOR SELECT TO " + READER + " USING (owner = '"
                        + HostileFixture.PET_OWNER + "')");
                s.execute("ALTER TABLE orders ENABLE ROW LEVEL SECURITY");
                s.execute("CREATE POLICY orders_tenant ON orders FOR SELECT TO " + READER + " USING (tenant = '"
                        + HostileFixture.ORDER_TENANT + "')");
            }
        }
        Path scratch = Files.createTempDirectory("grants-lp");
        return new Logins(new HostileFixture.Twins(Dialect.POSTGRESQL, admin[0], admin[1], least[0], scratch),
                new HostileFixture.Twins(Dialect.POSTGRESQL, least[0], least[1], least[0], scratch), null);
    }

    private static String env(String name, String fallback) {
        String v = System.getenv().getOrDefault(name, fallback);
        return v.isBlank() ? fallback : v;
    }
}
