package dev.sqlagent.spring;

import dev.sqlagent.AgentMetrics;
import dev.sqlagent.SqlAgent;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import javax.sql.DataSource;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * Actuator health of a {@link SqlAgent}: DOWN when its database does not answer a validity check
 * (within two seconds), UP otherwise, with the agent's counts as details. The model is not called:
 * a health probe must not spend tokens; model failures show in the {@code failures} detail and in the
 * metrics instead.
 */
public class SqlAgentHealthIndicator extends AbstractHealthIndicator {

    private static final int VALIDITY_TIMEOUT_SECONDS = 2;

    private final SqlAgent agent;
    private final DataSource dataSource;

    /**
     * Creates a health indicator for an agent and the database it reads.
     *
     * @param agent the agent
     * @param dataSource the database it reads, or null when it runs on a custom executor
     * @throws NullPointerException if the agent is null
     */
    public SqlAgentHealthIndicator(SqlAgent agent, DataSource dataSource) {
        super("sqlagent health check failed");
        this.agent = Objects.requireNonNull(agent, "agent");
        this.dataSource = dataSource;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) throws SQLException {
        AgentMetrics m = agent.metrics();
        builder.withDetail("dialect", agent.dialect().name())
                .withDetail("allowedTables", agent.policy().allowedTables().size())
                .withDetail("questions", m.questions())
                .withDetail("answered", m.answered())
                .withDetail("rejected", m.rejected())
                .withDetail("failed", m.failed())
                .withDetail("correctionTriggerRate", m.correctionTriggerRate());
        if (dataSource == null) {
            builder.up().withDetail("database", "custom executor (not checked)");
            return;
        }
        try (Connection c = dataSource.getConnection()) {
            if (c.isValid(VALIDITY_TIMEOUT_SECONDS)) {
                builder.up().withDetail("database", c.getMetaData().getDatabaseProductName());
            } else {
                builder.down().withDetail("database", "connection not valid within " + VALIDITY_TIMEOUT_SECONDS + " s");
            }
        }
    }
}
