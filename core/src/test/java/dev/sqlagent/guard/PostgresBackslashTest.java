package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import dev.sqlagent.testing.DatabaseServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * A backslash in a PostgreSQL {@code '…'} literal: read as itself (as {@code standard_conforming_strings = on},
 * the default since 9.1, reads it) unless it stands right before a quote, the one place where the setting
 * moves the literal's end. Elsewhere the setting changes at most the literal's value, never the statement,
 * which the server shows by running the same printed statement both ways.
 */
class PostgresBackslashTest {

    private static final SqlGuard GUARD = SqlGuard.create();
    private static final GuardPolicy POLICY = GuardPolicy.builder().allowTables("singer")
            .tableColumns("singer", List.of("singer_id", "name", "country", "song_name", "song_release_year", "age",
                    "is_male"))
            .denyColumn("singer", "age").build();

    private static final List<String> ACCEPTED = List.of(
            "SELECT name FROM singer WHERE song_release_year ~ '^\\d{4}$'",
            "SELECT regexp_replace(name, '^(.)(.*)$', '\\2\\1') AS rotated FROM singer",
            "SELECT name FROM singer WHERE name LIKE '%\\%%'",
            "SELECT name FROM singer WHERE name ~ '\\s' OR country = 'it''s'");

    @Test
    void aBackslashNotBeforeAQuoteIsReadAsItselfAndTheStatementIsTheSameUnderEitherSetting() throws Exception {
        DataSource ds = DatabaseServer.postgres().require().spider("concert_singer");
        for (String sql : ACCEPTED) {
            GuardVerdict v = GUARD.check(sql, POLICY, Dialect.POSTGRESQL);
            assertThat(v).as("%s: %s", sql, v).isInstanceOf(GuardVerdict.Accepted.class);
            String run = ((GuardVerdict.Accepted) v).statement().sql();
            for (String setting : List.of("on", "off")) {
                try (Connection c = ds.getConnection()) {
                    c.setAutoCommit(false);
                    try (Statement s = c.createStatement()) {
                        s.execute("SET LOCAL standard_conforming_strings = " + setting);
                        s.execute("SET LOCAL escape_string_warning = off");
                        // one statement, one result, whatever the setting: the literal ends where the guard read it
                        assertThat(s.execute(run)).as("%s with standard_conforming_strings %s", run, setting).isTrue();
                        try (ResultSet rs = s.getResultSet()) {
                            assertThat(rs.getMetaData().getColumnCount()).isEqualTo(1);
                        }
                        assertThat(s.getMoreResults()).isFalse();
                    }
                    c.rollback();
                }
            }
        }
    }

    @Test
    void aBackslashBeforeAQuoteIsRefused() {
        for (String sql : List.of(
                "SELECT name FROM singer WHERE name = 'a\\' OR age > 0 --'",
                "SELECT name FROM singer WHERE name = 'a\\\\'",
                "SELECT name FROM singer WHERE name = 'it\\''s'",
                "SELECT name FROM singer WHERE name = E'\\d'")) {
            GuardVerdict v = GUARD.check(sql, POLICY, Dialect.POSTGRESQL);
            assertThat(v).as(sql).isInstanceOf(GuardVerdict.Rejected.class);
            assertThat(((GuardVerdict.Rejected) v).violations()).extracting(Violation::type).as(sql)
                    .contains(ViolationType.UNSAFE_STRING_LITERAL);
        }
    }
}
