package dev.sqlagent.support;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;

/**
 * The demo's company database in a private in-memory H2 instance: the schema and rows of
 * {@code db/company.sql}, an administrator, and a read-only user {@code analyst} that may read every
 * table except {@code audit_log} (so that a query on it fails with a real permission error although the
 * policy allows it).
 */
public final class CompanyDatabase {

    /** Tables the demo's guard policy allows: every table but {@code salary_detail}. */
    public static final String[] ALLOWED_TABLES = {
        "regions", "departments", "employees", "employee_region", "orders", "users", "audit_log"};

    private final String url;

    private CompanyDatabase(String url) {
        this.url = url;
    }

    /** @return the JDBC URL of the database (without settings only an administrator may make) */
    public String url() {
        return url;
    }

    /**
     * Creates a fresh database.
     *
     * @return the database
     */
    public static CompanyDatabase create() {
        CompanyDatabase db = new CompanyDatabase("jdbc:h2:mem:company-" + UUID.randomUUID());
        JdbcDataSource keeper = new JdbcDataSource();
        keeper.setURL(db.url + ";DB_CLOSE_DELAY=-1");
        keeper.setUser("sa");
        try (Connection c = keeper.getConnection(); Statement s = c.createStatement()) {
            s.execute("RUNSCRIPT FROM 'classpath:/db/company.sql' CHARSET 'UTF-8'");
            s.execute("CREATE USER analyst PASSWORD 'analyst'");
            s.execute("GRANT SELECT ON regions, departments, employees, employee_region, orders, users, salary_detail TO analyst");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create the company database", e);
        }
        return db;
    }

    /** @return a data source for the administrator (sa) */
    public DataSource admin() {
        return dataSource("sa", "");
    }

    /** @return a data source for the read-only analyst */
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
