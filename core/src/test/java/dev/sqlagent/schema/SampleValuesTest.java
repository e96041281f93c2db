package dev.sqlagent.schema;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.testkit.CompanyDatabase;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

class SampleValuesTest {

    /** Counts the connections a data source hands out. */
    private static final class CountingDataSource implements DataSource {
        final DataSource delegate;
        final AtomicInteger connections = new AtomicInteger();

        CountingDataSource(DataSource delegate) {
            this.delegate = delegate;
        }

        @Override
        public Connection getConnection() throws SQLException {
            connections.incrementAndGet();
            return delegate.getConnection();
        }

        @Override
        public Connection getConnection(String user, String password) throws SQLException {
            connections.incrementAndGet();
            return delegate.getConnection(user, password);
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {
        }

        @Override
        public void setLoginTimeout(int seconds) {
        }

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            throw new SQLFeatureNotSupportedException();
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            throw new SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) {
            return false;
        }
    }

    @Test
    void distinctValuesAreReadBoundedAndCached() throws SQLException {
        CompanyDatabase db = CompanyDatabase.create();
        SchemaCatalog catalog = SchemaCatalog.introspect(db.admin(), GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES));
        CountingDataSource ds = new CountingDataSource(db.admin());
        AtomicLong nanos = new AtomicLong();
        SampleValues samples = SampleValues.builder(ds).maxValues(3).expireAfterWrite(Duration.ofMinutes(5)).ticker(nanos::get).build();

        SampleValues.Loaded first = samples.load(catalog, Map.of("orders", List.of("status", "customer")));
        assertThat(first.failures()).isEmpty();
        assertThat(first.values().get("ORDERS").get("STATUS")).hasSizeBetween(1, 3)
                .isSubsetOf("paid", "cancelled", "refunded");
        assertThat(first.values().get("ORDERS").get("CUSTOMER")).hasSize(3);
        assertThat(ds.connections).hasValue(1);

        assertThat(samples.load(catalog, Map.of("orders", List.of("status"))).values().get("ORDERS").get("STATUS"))
                .isEqualTo(first.values().get("ORDERS").get("STATUS"));
        assertThat(ds.connections).as("served from the cache").hasValue(1);

        nanos.addAndGet(Duration.ofMinutes(6).toNanos());
        samples.load(catalog, Map.of("orders", List.of("status")));
        assertThat(ds.connections).as("read again after expiry").hasValue(2);
    }

    @Test
    void unreadableAndUnknownColumnsAreNotedNotThrown() throws SQLException {
        CompanyDatabase db = CompanyDatabase.create();
        // audit_log is in the policy but the analyst role may not read it
        SchemaCatalog catalog = SchemaCatalog.introspect(db.admin(), GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES));
        SampleValues samples = SampleValues.builder(db.analyst()).build();
        SampleValues.Loaded loaded = samples.load(catalog, Map.of("audit_log", List.of("event"), "orders", List.of("nope"),
                "salary_detail", List.of("bonus")));
        assertThat(loaded.values()).isEmpty();
        assertThat(loaded.failures()).hasSize(3)
                .anyMatch(f -> f.startsWith("AUDIT_LOG.EVENT: "))
                .anyMatch(f -> f.equals("ORDERS.nope: no such column in the catalog"))
                .anyMatch(f -> f.equals("salary_detail: no such table in the catalog"));
    }

    @Test
    void loadedSamplesEnrichTheCatalogAndShowInTheRender() throws SQLException {
        CompanyDatabase db = CompanyDatabase.create();
        SchemaCatalog catalog = SchemaCatalog.introspect(db.admin(), GuardPolicy.allowingTables(CompanyDatabase.ALLOWED_TABLES));
        SampleValues.Loaded loaded = SampleValues.builder(db.admin()).maxValues(2).build().loadAll(catalog);
        assertThat(loaded.values().get("ORDERS")).doesNotContainKeys("ID", "EMPLOYEE_ID").containsKey("STATUS");
        SchemaCatalog rich = catalog.enrich(SchemaEnrichment.builder().sampleValues(loaded).build());
        RenderedSchema r = SchemaRenderer.ddl().render(rich, 10_000);
        assertThat(r.text()).contains("REGION_NAME CHARACTER VARYING /* e.g. '");
        RenderedSchema small = SchemaRenderer.ddl().render(rich, r.estimatedTokens() / 2);
        assertThat(small.omitted()).first().asString().startsWith("sample values of");
    }
}
