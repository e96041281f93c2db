package dev.sqlagent.examples.demo;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;

/**
 * The demo's company database: an in-memory H2 instance with employees, departments, orders, regions,
 * employee_region, users, audit_log and salary_detail, and a read-only role {@code analyst} that may
 * read every table except {@code audit_log}. The agent's policy forbids {@code salary_detail}; the
 * database role forbids {@code audit_log}: two layers, each shown by a scenario.
 */
public final class CompanyDatabase {

    /** What the demo's guard policy allows: every table but {@code salary_detail}. */
    public static final String[] ALLOWED_TABLES = {
        "regions", "departments", "employees", "employee_region", "orders", "users", "audit_log"};

    private final String url;

    private CompanyDatabase(String url) {
        this.url = url;
    }

    /** @return a new, filled database */
    public static CompanyDatabase create() {
        CompanyDatabase db = new CompanyDatabase("jdbc:h2:mem:company-" + UUID.randomUUID());
        JdbcDataSource admin = new JdbcDataSource();
        admin.setURL(db.url + ";DB_CLOSE_DELAY=-1");
        admin.setUser("sa");
        try (Connection c = admin.getConnection(); Statement s = c.createStatement()) {
            s.execute("RUNSCRIPT FROM 'classpath:/dev/sqlagent/examples/company.sql' CHARSET 'UTF-8'");
            s.execute("CREATE USER analyst PASSWORD 'analyst'");
            s.execute("GRANT SELECT ON regions, departments, employees, employee_region, orders, users, salary_detail"
                    + " TO analyst");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create the demo database: " + e.getMessage(), e);
        }
        return db;
    }

    /** @return the read-only analyst's data source, which the agent uses */
    public DataSource analyst() {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL(url);
        ds.setUser("analyst");
        ds.setPassword("analyst");
        return ds;
    }
}
