package dev.sqlagent.trinocluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The cluster the Trino suites run on is real: a coordinator and a worker that answer over the Trino JDBC
 * driver, run TPC-H and memory-catalog queries across nodes, and plan with {@code EXPLAIN (TYPE IO)}.
 * Without a JDK 25 the suite skips with a notice, except under {@code SQLAGENT_REQUIRE_SERVERS=true} (as
 * {@code .ci/run} sets), where it fails.
 */
class TrinoClusterTest {

    private static TrinoCluster cluster;

    @BeforeAll
    static void start() {
        if (TrinoCluster.javaHome().isEmpty()) {
            String notice = "*** TRINO SUITE SKIPPED: no JDK 25 found (set SQLAGENT_TRINO_JAVA_HOME) ***";
            System.err.println(notice);
            if (Boolean.parseBoolean(System.getenv("SQLAGENT_REQUIRE_SERVERS"))) {
                throw new IllegalStateException(notice + " and SQLAGENT_REQUIRE_SERVERS=true");
            }
            Assumptions.abort(notice);
        }
        cluster = TrinoCluster.shared();
    }

    private static List<String> column(String url, String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(url, "sqlagent-test", null);
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    @Test
    void aCoordinatorAndAWorkerAreActive() throws Exception {
        List<String> nodes = column(cluster.jdbcUrl("system", "runtime"),
                "SELECT CAST(coordinator AS varchar) FROM system.runtime.nodes WHERE state = 'active'");
        assertThat(nodes).hasSize(1 + TrinoCluster.WORKERS).containsOnlyOnce("true");
    }

    @Test
    void tpchIsGeneratedAndQueried() throws Exception {
        assertThat(column(cluster.jdbcUrl("tpch", "tiny"), "SELECT count(*) FROM orders")).containsExactly("15000");
        assertThat(column(cluster.jdbcUrl("tpch", "tiny"),
                "SELECT n.name FROM nation n JOIN region r ON n.regionkey = r.regionkey WHERE r.name = 'ASIA' "
                        + "ORDER BY n.name LIMIT 2")).containsExactly("CHINA", "INDIA");
    }

    @Test
    void theMemoryCatalogTakesTestData() throws Exception {
        String url = cluster.jdbcUrl("memory", "default");
        try (Connection c = DriverManager.getConnection(url, "sqlagent-test", null); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA IF NOT EXISTS memory.cluster_check");
            s.execute("DROP TABLE IF EXISTS memory.cluster_check.t");
            s.execute("CREATE TABLE memory.cluster_check.t AS SELECT nationkey AS k, name FROM tpch.tiny.nation");
        }
        assertThat(column(url, "SELECT count(*) FROM memory.cluster_check.t")).containsExactly("25");
    }

    @Test
    void theIoPlanNamesTablesAndConstrainedColumns() throws Exception {
        String plan = String.join("\n", column(cluster.jdbcUrl("tpch", "tiny"),
                "EXPLAIN (TYPE IO, FORMAT JSON) SELECT orderkey FROM orders WHERE orderstatus = 'F'"));
        assertThat(plan).contains("\"catalog\" : \"tpch\"").contains("\"table\" : \"orders\"")
                .contains("\"columnName\" : \"orderstatus\"");
    }
}
