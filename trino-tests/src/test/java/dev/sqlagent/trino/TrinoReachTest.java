package dev.sqlagent.trino;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.Dialect;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** The module's class path reaches the cluster through the driver a host would add, and nothing else of Trino's. */
class TrinoReachTest {

    @Test
    void theDriverReachesTheClusterAndNamesItsProduct() throws Exception {
        try (Connection c = TrinoFixture.admin("tpch", "tiny"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM nation")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).isEqualTo(25);
            assertThat(c.getMetaData().getDatabaseProductName()).isEqualTo("Trino");
        }
        assertThat(Dialect.class.getClassLoader()).isNotNull();
    }

    @Test
    void noTrinoServerClassIsOnThisClassPath() {
        assertThat(getClass().getClassLoader().getResource("io/trino/testing/DistributedQueryRunner.class")).isNull();
    }
}
