package dev.sqlagent.testkit;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;

/**
 * The company test database in a private in-memory H2 instance (H2 must be on the class path; this kit
 * brings it): employees, departments, orders, regions, employee_region, users, audit_log and
 * salary_detail with the rows of {@code dev/sqlagent/testkit/company.sql}, an administrator, and a
 * read-only user {@code analyst} that may read every table except {@code audit_log} (so that a query on
 * it fails with a real permission error although the policy allows it). The demo's guard policy forbids
 * {@code salary_detail} ({@link #ALLOWED_TABLES}): two layers, each shown by a scenario.
 *
 * <pre>{@code
 * CompanyDatabase db = CompanyDatabase.create();
 * SqlAgent agent = SqlAgent.builder().llm(llm).dataSource(db.analyst())
 *     .policy(GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES)).build();
 * }</pre>
 */
public final class CompanyDatabase {

    /** Tables the demo's guard policy allows: every table but {@code salary_detail}. */
    public static final String[] ALLOWED_TABLES = {
        "regions", "departments", "employees", "employee_region", "orders", "users", "audit_log"};

    private final String url;

    private CompanyDatabase(String url) {
        this.url = url;
    }

    /** {@return the JDBC URL of the database (without settings only an administrator may make)} */
    public String url() {
        return url;
    }

    /**
     * Creates a fresh database, filled, under a name of its own (databases of one JVM never share rows).
     *
     * @return the database
     * @throws IllegalStateException when H2 cannot create it
     */
    public static CompanyDatabase create() {
        CompanyDatabase db = new CompanyDatabase("jdbc:h2:mem:company-" + UUID.randomUUID());
        JdbcDataSource keeper = new JdbcDataSource();
        keeper.setURL(db.url + ";DB_CLOSE_DELAY=-1");
        keeper.setUser("sa");
        try (Connection c = keeper.getConnection(); Statement s = c.createStatement()) {
            s.execute("RUNSCRIPT FROM 'classpath:/dev/sqlagent/testkit/company.sql' CHARSET 'UTF-8'");
            s.execute("CREATE USER analyst PASSWORD 'analyst'");
            s.execute("GRANT SELECT ON regions, departments, employees, employee_region, orders, users, salary_detail TO analyst");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create the company database: " + e.getMessage(), e);
        }
        return db;
    }

    /** {@return a data source for the administrator (sa)} */
    public DataSource admin() {
        return dataSource("sa", "");
    }

    /** {@return a data source for the read-only analyst} */
    public DataSource analyst() {
        return dataSource("analyst", "analyst");
    }

    private DataSource dataSource(String user, String password) {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL(url);
        ds.setUser(user);
        ds.setPassword(password);
        return ds;
    }
}
