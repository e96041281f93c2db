package dev.sqlagent.guard.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.execution.UrlDataSource;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.testing.DatabaseServer;
import dev.sqlagent.testing.SharedData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.Statement;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The least-privilege audit on real engines, with logins made for the test (and dropped after): what a
 * login can read beyond the policy and whether it can write is reported, and a login restricted to the
 * policy is reported clean.
 */
class PrivilegeAuditTest {

    private static final GuardPolicy POLICY = GuardPolicy.builder().allowTables("singer", "concert")
            .denyColumn("singer", "age").build();

    @Test
    void sqliteFileOpenedReadWriteCanWriteAndHasNoGrants(@TempDir Path dir) throws Exception {
        Path copy = dir.resolve("concert_singer.sqlite");
        Files.copy(SharedData.spiderDir().resolve("sqlite/concert_singer.sqlite"), copy,
                StandardCopyOption.REPLACE_EXISTING);
        PrivilegeReport rw = PrivilegeAudit.audit(new UrlDataSource("jdbc:sqlite:" + copy, null, null),
                Dialect.SQLITE, POLICY);
        assertThat(rw.writes()).singleElement().asString().contains("read-write");
        assertThat(rw.forbiddenTables()).containsExactlyInAnyOrder("stadium", "singer_in_concert");
        assertThat(rw.deniedColumns()).containsExactly("singer.age");
        assertThat(rw.guardIsOnlyDefence()).isTrue();

        PrivilegeReport ro = PrivilegeAudit.audit(SharedData.sqlite("concert_singer"), Dialect.SQLITE, POLICY);
        assertThat(ro.writes()).isEmpty();
        assertThat(ro.forbiddenTables()).containsExactlyInAnyOrder("stadium", "singer_in_concert");
        assertThat(ro.toJson()).contains("\"can_write\":false", "\"least_privilege\":false");
    }

    @Test
    void h2AdminCanDoEverythingAndAUserOnlyWhatItWasGranted() throws Exception {
        String url = "jdbc:h2:mem:audit_" + UUID.randomUUID();
        DataSource admin = new UrlDataSource(url + ";DB_CLOSE_DELAY=-1", "sa", "");
        try (Connection c = admin.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE singer (singer_id INT PRIMARY KEY, name VARCHAR(40), age INT)");
            s.execute("CREATE TABLE concert (concert_id INT PRIMARY KEY, singer_id INT)");
            s.execute("CREATE TABLE stadium (stadium_id INT PRIMARY KEY, name VARCHAR(40))");
            s.execute("CREATE USER reader PASSWORD 'reader'");
            s.execute("GRANT SELECT ON singer, concert TO reader");
        }
        PrivilegeReport asAdmin = PrivilegeAudit.audit(admin, Dialect.H2, POLICY);
        assertThat(asAdmin.writes()).anyMatch(w -> w.contains("admin"));
        assertThat(asAdmin.forbiddenTables()).containsExactly("public.stadium");

        DataSource reader = new UrlDataSource(url, "reader", "reader");
        PrivilegeReport asReader = PrivilegeAudit.audit(reader, Dialect.H2, POLICY);
        assertThat(asReader.writes()).isEmpty();
        assertThat(asReader.forbiddenTables()).isEmpty();
        assertThat(asReader.deniedColumns()).containsExactly("singer.age"); // H2 has no column rights

        try (Connection c = admin.getConnection(); Statement s = c.createStatement()) {
            s.execute("GRANT INSERT ON concert TO reader");
        }
        assertThat(PrivilegeAudit.audit(reader, Dialect.H2, POLICY).writes()).containsExactly("INSERT on public.concert");
    }

    @Test
    void postgresRoleWithTableAndColumnGrantsIsReportedExactly() throws Exception {
        DatabaseServer pg = DatabaseServer.postgres().require();
        pg.load("concert_singer");
        String role = "sqlagent_audit_" + UUID.randomUUID().toString().substring(0, 8);
        DataSource admin = pg.adminDataSource();
        try (Connection c = admin.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE ROLE " + role + " LOGIN");
            s.execute("GRANT USAGE ON SCHEMA concert_singer TO " + role);
            s.execute("GRANT SELECT ON concert_singer.singer, concert_singer.concert TO " + role);
            s.execute("GRANT SELECT (name) ON concert_singer.stadium TO " + role);
        }
        try {
            DataSource login = new UrlDataSource(pg.spiderUrl("concert_singer"), role, "");
            PrivilegeReport report = PrivilegeAudit.audit(login, Dialect.POSTGRESQL, POLICY);
            assertThat(report.login()).isEqualTo(role);
            assertThat(report.writes()).isEmpty();
            assertThat(report.forbiddenTables()).containsExactly("concert_singer.stadium");
            assertThat(report.deniedColumns()).containsExactly("singer.age");

            GuardPolicy tight = GuardPolicy.builder().allowTables("singer", "concert", "stadium").build();
            try (Connection c = admin.getConnection(); Statement s = c.createStatement()) {
                s.execute("REVOKE SELECT ON concert_singer.singer FROM " + role);
                s.execute("GRANT SELECT (singer_id, name) ON concert_singer.singer TO " + role);
            }
            PrivilegeReport clean = PrivilegeAudit.audit(login, Dialect.POSTGRESQL,
                    tight.toBuilder().denyColumn("singer", "age").build());
            assertThat(clean.guardIsOnlyDefence()).as(clean.toText()).isFalse();

            try (Connection c = admin.getConnection(); Statement s = c.createStatement()) {
                s.execute("GRANT INSERT ON concert_singer.concert TO " + role);
            }
            assertThat(PrivilegeAudit.audit(login, Dialect.POSTGRESQL, POLICY).writes())
                    .containsExactly("INSERT on concert_singer.concert");
            assertThat(PrivilegeAudit.audit(admin, Dialect.POSTGRESQL, POLICY).writes())
                    .anyMatch(w -> w.startsWith("superuser"));
        } finally {
            try (Connection c = admin.getConnection(); Statement s = c.createStatement()) {
                s.execute("DROP OWNED BY " + role);
                s.execute("DROP ROLE " + role);
            }
        }
    }

    @Test
    void mariadbUserWithTableAndColumnGrantsIsReportedExactly() throws Exception {
        DatabaseServer maria = DatabaseServer.mariadb().require();
        maria.load("concert_singer");
        String user = "sqlagent_audit_" + UUID.randomUUID().toString().substring(0, 8);
        DataSource admin = maria.adminDataSource();
        try (Connection c = admin.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE USER '" + user + "'@'%'");
            s.execute("GRANT SELECT ON concert_singer.singer TO '" + user + "'@'%'");
            s.execute("GRANT SELECT ON concert_singer.concert TO '" + user + "'@'%'");
            s.execute("GRANT SELECT (Name) ON concert_singer.stadium TO '" + user + "'@'%'");
        }
        try {
            DataSource login = new UrlDataSource(maria.spiderUrl("concert_singer"), user, "");
            PrivilegeReport report = PrivilegeAudit.audit(login, Dialect.MARIADB, POLICY);
            assertThat(report.login()).startsWith(user + "@");
            assertThat(report.writes()).isEmpty();
            assertThat(report.forbiddenTables()).containsExactly("concert_singer.stadium");
            assertThat(report.deniedColumns()).containsExactly("singer.age");

            try (Connection c = admin.getConnection(); Statement s = c.createStatement()) {
                s.execute("GRANT INSERT ON concert_singer.concert TO '" + user + "'@'%'");
            }
            assertThat(PrivilegeAudit.audit(login, Dialect.MARIADB, POLICY).writes())
                    .containsExactly("INSERT on concert_singer.concert");
            assertThat(PrivilegeAudit.audit(maria.spider("concert_singer"), Dialect.MARIADB, POLICY).writes())
                    .contains("INSERT on *.*");
        } finally {
            try (Connection c = admin.getConnection(); Statement s = c.createStatement()) {
                s.execute("DROP USER '" + user + "'@'%'");
            }
        }
    }
}
