package dev.sqlagent.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlagent.Dialect;
import dev.sqlagent.guard.FunctionPolicy.Decision;
import dev.sqlagent.guard.FunctionPolicy.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The function policy decided in the closed world of the classified catalogs. */
class FunctionPolicyTest {

    private static Decision decide(FunctionPolicy p, Dialect d, String... parts) {
        return p.decide(List.of(parts), d);
    }

    @Test
    void standardAllowsTheSafeClassesAndRefusesTheOthersNamingTheClass() {
        FunctionPolicy p = FunctionPolicy.standard();
        assertThat(decide(p, Dialect.POSTGRESQL, "upper").verdict()).isEqualTo(Verdict.ALLOWED);
        assertThat(decide(p, Dialect.POSTGRESQL, "repeat").verdict()).as("bounded by the guard")
                .isEqualTo(Verdict.ALLOWED);
        Decision xml = decide(p, Dialect.POSTGRESQL, "query_to_xml");
        assertThat(xml.verdict()).isEqualTo(Verdict.REFUSED);
        assertThat(xml.functionClass()).contains(FunctionClass.READS_TABLES);
        assertThat(decide(p, Dialect.H2, "CSVWRITE").functionClass()).contains(FunctionClass.WRITES);
        assertThat(decide(p, Dialect.MARIADB, "master_pos_wait").verdict()).isEqualTo(Verdict.REFUSED);
        assertThat(decide(p, Dialect.POSTGRESQL, "pg_catalog", "upper").verdict()).isEqualTo(Verdict.ALLOWED);
        assertThat(decide(p, Dialect.POSTGRESQL, "pg_catalog", "pg_sleep").verdict()).isEqualTo(Verdict.REFUSED);
    }

    @Test
    void aNameTheEngineLacksIsUnknownWithTheEquivalentNotAViolation() {
        Decision year = decide(FunctionPolicy.standard(), Dialect.SQLITE, "YEAR");
        assertThat(year.verdict()).isEqualTo(Verdict.UNKNOWN);
        assertThat(year.hint()).hasValueSatisfying(h -> assertThat(h).contains("strftime"));
        assertThat(decide(FunctionPolicy.standard(), Dialect.POSTGRESQL, "ifnull").verdict())
                .isEqualTo(Verdict.UNKNOWN);
        assertThat(decide(FunctionPolicy.standard(), Dialect.SQLITE, "year").verdict())
                .as("an invented name stays unknown in denylist mode too")
                .isEqualTo(decide(FunctionPolicy.denying("md5"), Dialect.SQLITE, "year").verdict());
    }

    @Test
    void qualifiedNamesOutsideTheEnginesSchemaAndUntestedDialectsAreRefusedNotUnknown() {
        assertThat(decide(FunctionPolicy.standard(), Dialect.POSTGRESQL, "public", "upper").verdict())
                .isEqualTo(Verdict.REFUSED);
        assertThat(decide(FunctionPolicy.standard(), Dialect.POSTGRESQL, "hr", "leak").verdict())
                .isEqualTo(Verdict.REFUSED);
        assertThat(decide(FunctionPolicy.standard(), Dialect.SQLSERVER, "some_function").verdict())
                .isEqualTo(Verdict.REFUSED);
        assertThat(decide(FunctionPolicy.standard(), Dialect.SQLSERVER, "upper").verdict())
                .isEqualTo(Verdict.ALLOWED);
        assertThat(decide(FunctionPolicy.standard(), Dialect.SQLITE, "pg_sleep").verdict())
                .as("a name unsafe on another engine is a probe, not an invented name")
                .isEqualTo(Verdict.REFUSED);
    }

    @Test
    void denylistAllowsTheSafeClassesMinusTheDenialsAndNothingOutsideTheCatalog() {
        FunctionPolicy p = FunctionPolicy.denying("md5");
        assertThat(decide(p, Dialect.POSTGRESQL, "upper").verdict()).isEqualTo(Verdict.ALLOWED);
        assertThat(decide(p, Dialect.POSTGRESQL, "md5").verdict()).isEqualTo(Verdict.REFUSED);
        for (String[] call : new String[][] {{"query_to_xml"}, {"table_to_xml"}, {"ts_stat"}, {"current_setting"},
                {"pg_sleep"}, {"version"}}) {
            assertThat(decide(p, Dialect.POSTGRESQL, call).verdict()).as(call[0]).isEqualTo(Verdict.REFUSED);
        }
        for (String f : List.of("file_write", "file_read", "csvwrite", "db_object_sql", "cancel_session")) {
            assertThat(decide(p, Dialect.H2, f).verdict()).as(f).isEqualTo(Verdict.REFUSED);
        }
        for (String f : List.of("master_pos_wait", "get_lock", "release_lock", "master_gtid_wait")) {
            assertThat(decide(p, Dialect.MARIADB, f).verdict()).as(f).isEqualTo(Verdict.REFUSED);
        }
        assertThat(decide(p, Dialect.POSTGRESQL, "my_udf").allowed()).isFalse();
        assertThat(p.allowAlso("md5").allows(List.of("md5"), Dialect.POSTGRESQL)).isTrue();
    }

    @Test
    void allowlistsAllowOnlyTheirNamesAndTheHostsOwnFunctions() {
        FunctionPolicy p = FunctionPolicy.allowOnly("count", "my_udf");
        assertThat(p.allows(List.of("count"), Dialect.SQLITE)).isTrue();
        assertThat(decide(p, Dialect.SQLITE, "upper").verdict()).isEqualTo(Verdict.REFUSED);
        assertThat(decide(p, Dialect.SQLITE, "upper").functionClass()).contains(FunctionClass.SAFE_SCALAR);
        assertThat(p.allows(List.of("my_udf"), Dialect.POSTGRESQL)).as("the host's own function").isTrue();
        assertThat(FunctionPolicy.standard().allowAlso("public.my_udf").allows(List.of("public", "my_udf"),
                Dialect.POSTGRESQL)).isTrue();
    }

    @Test
    void namingAnUnsafeFunctionFailsNamingItsClassUnlessTheHostConfirmsTheClass() {
        assertThatThrownBy(() -> FunctionPolicy.allowOnly("count", "pg_sleep"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("WAITS_OR_LOCKS")
                .hasMessageContaining("allowUnsafe");
        assertThatThrownBy(() -> FunctionPolicy.standard().allowAlso("current_user"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("READS_SESSION");
        assertThatThrownBy(() -> FunctionPolicy.denying().allowAlso("query_to_xml"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("READS_TABLES");
        assertThatThrownBy(() -> FunctionPolicy.standard().allowAlso("xp_cmdshell"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("READS_FILES");

        FunctionPolicy p = FunctionPolicy.standard().allowUnsafe(FunctionClass.READS_SESSION, "current_setting");
        assertThat(p.allows(List.of("current_setting"), Dialect.POSTGRESQL)).isTrue();
        assertThat(p.allows(List.of("version"), Dialect.POSTGRESQL)).isFalse();
        assertThat(p.confirmedUnsafe()).containsEntry("current_setting", FunctionClass.READS_SESSION);
        assertThat(FunctionPolicy.standard().allowUnsafe(FunctionClass.READS_CATALOG, "regclass")
                .allowsProbe("regclass")).isTrue();

        assertThatThrownBy(() -> FunctionPolicy.standard().allowUnsafe(FunctionClass.WRITES, "pg_sleep"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("WAITS_OR_LOCKS");
        assertThatThrownBy(() -> FunctionPolicy.standard().allowUnsafe(FunctionClass.SAFE_SCALAR, "upper"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("allowAlso");
        assertThat(FunctionPolicy.standard().allowUnsafe(FunctionClass.WAITS_OR_LOCKS, "pg_sleep")
                .allows(List.of("pg_sleep"), Dialect.POSTGRESQL)).isTrue();
    }

    @Test
    void standardFunctionsAreTheSafeClassesOfTheCatalog() {
        assertThat(FunctionPolicy.standardFunctions(Dialect.SQLITE)).contains("count", "strftime", "printf")
                .doesNotContain("load_extension", "sqlite_version");
        assertThat(FunctionPolicy.isDangerous("pg_sleep")).isTrue();
        assertThat(FunctionPolicy.isDangerous("upper")).isFalse();
        assertThat(FunctionPolicy.isDangerous("utl_http")).isTrue();
        assertThat(FunctionPolicy.isProbe("current_user")).isTrue();
    }
}
