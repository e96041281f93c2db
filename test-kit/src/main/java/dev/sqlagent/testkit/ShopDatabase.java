package dev.sqlagent.testkit;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;

/**
 * A small shop in a private in-memory H2 database, for tests that need a few rows rather than the company
 * database: {@code customers} (Ada and Cy of Lyon, Bo of Oslo), {@code orders} (three, two of them Ada's) and
 * {@code card_numbers}, a table a test policy forbids (it holds the card {@code 4111111111111111}, so a test
 * can check that it never comes out). The login is H2's administrator {@code sa}.
 *
 * <pre>{@code
 * SqlAgent agent = SqlAgent.builder().llm(llm).dataSource(ShopDatabase.create())
 *     .policy(GuardPolicy.allowingTables("customers", "orders")).build();
 * }</pre>
 */
public final class ShopDatabase {

    private ShopDatabase() {
    }

    /**
     * Creates a fresh shop database, which lives until the JVM ends.
     *
     * @return a data source on it
     * @throws IllegalStateException if H2 cannot create it
     */
    public static DataSource create() {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:shop-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        ds.setUser("sa");
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE customers (id INT PRIMARY KEY, name VARCHAR(50), city VARCHAR(50))");
            s.execute("CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT REFERENCES customers(id),"
                    + " amount DECIMAL(10,2), placed DATE)");
            s.execute("CREATE TABLE card_numbers (customer_id INT, card VARCHAR(20))");
            s.execute("INSERT INTO customers VALUES (1, 'Ada', 'Lyon'), (2, 'Bo', 'Oslo'), (3, 'Cy', 'Lyon')");
            s.execute("INSERT INTO orders VALUES (10, 1, 20.00, DATE '2024-01-05'), (11, 1, 5.50, DATE '2024-02-01'),"
                    + " (12, 2, 99.90, DATE '2024-02-03')");
            s.execute("INSERT INTO card_numbers VALUES (1, '4111111111111111')");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create the shop database", e);
        }
        return ds;
    }
}
