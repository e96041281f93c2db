package dev.sqlagent.mcp;

import dev.sqlagent.SqlAgent;
import dev.sqlagent.cases.InMemoryCaseSink;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.testkit.CompanyDatabase;
import dev.sqlagent.testkit.ScriptedLlm;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;

/**
 * The test kit's company database (H2) with a login that can read exactly the agent's tables, and the
 * policies of the HTTP tests' clients.
 */
final class CompanyFixture implements AutoCloseable {

    /** Every table the agent may read: the company's, without {@code salary_detail} and {@code audit_log}. */
    static final String[] AGENT_TABLES = {"regions", "departments", "employees", "employee_region", "orders", "users"};

    final CompanyDatabase db = CompanyDatabase.create();
    final ScriptedLlm llm = ScriptedLlm.create();
    final InMemoryCaseSink cases = new InMemoryCaseSink();
    final SqlAgent agent;

    CompanyFixture() {
        try (Connection c = db.admin().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE USER mcp_reader PASSWORD 'reader'");
            s.execute("GRANT SELECT ON regions, departments, employees, employee_region, orders, users TO mcp_reader");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        agent = SqlAgent.builder().llm(llm).dataSource(reader()).policy(agentPolicy()).caseSink(cases).build();
    }

    /** @return a login that can read the agent's tables and nothing else */
    DataSource reader() {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL(db.url());
        ds.setUser("mcp_reader");
        ds.setPassword("reader");
        return ds;
    }

    /**
     * @return the agent's policy: its tables (no denied column: H2 has no column rights, so the login would
     *     read it anyway and the audit would say so)
     */
    static GuardPolicy agentPolicy() {
        return GuardPolicy.builder().allowTables(AGENT_TABLES).build();
    }

    /** @return the analysts' policy: employees, departments and orders */
    static GuardPolicy analysts() {
        return GuardPolicy.builder().allowTables("employees", "departments", "orders").build();
    }

    /** @return the support desk's policy: employees, departments and users without e-mail; no orders */
    static GuardPolicy support() {
        return GuardPolicy.builder().allowTables("employees", "departments", "users").denyColumn("users", "email")
                .build();
    }

    /** @return one salesman's policy: orders of employee 1 only, two rows at most */
    static GuardPolicy salesman() {
        return GuardPolicy.builder().allowTables("orders", "employees").rowFilter("orders", "employee_id", 1)
                .maxRows(2).build();
    }

    @Override
    public void close() {
        agent.close();
    }
}
