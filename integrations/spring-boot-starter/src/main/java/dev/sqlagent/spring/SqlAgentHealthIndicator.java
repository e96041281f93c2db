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
 * (within two seconds), UP otherwise, with the agent's counts as details and, when the starter audited the
 * login at start-up, the audit ({@code privileges}: see {@link SqlAgentPrivileges#details()}); a login
 * wider than the policy does not make the agent DOWN. The model is not called:
 * a health probe must not spend tokens; model failures show in the {@code failures} detail and in the
 * metrics instead.
 */
public class SqlAgentHealthIndicator extends AbstractHealthIndicator {

    private static final int VALIDITY_TIMEOUT_SECONDS = 2;

    private final SqlAgent agent;
    private final DataSource dataSource;
    private final SqlAgentPrivileges privileges;

    /**
     * Creates a health indicator for an agent and the database it reads, without a privilege audit.
     *
     * @param agent the agent
     * @param dataSource the database it reads, or null when it runs on a custom executor
     * @throws NullPointerException if the agent is null
     */
    public SqlAgentHealthIndicator(SqlAgent agent, DataSource dataSource) {
        this(agent, dataSource, null);
    }

    /**
     * Creates a health indicator for an agent, the database it reads and the start-up audit of its login.
     *
     * @param agent the agent
     * @param dataSource the database it reads, or null when it runs on a custom executor
     * @param privileges the start-up privilege audit, shown as the {@code privileges} detail; null for none
     * @throws NullPointerException if the agent is null
     */
    public SqlAgentHealthIndicator(SqlAgent agent, DataSource dataSource, SqlAgentPrivileges privileges) {
        super("sqlagent health check failed");
        this.agent = Objects.requireNonNull(agent, "agent");
        this.dataSource = dataSource;
        this.privileges = privileges;
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
        if (privileges != null) {
            builder.withDetail("privileges", privileges.details());
        }
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
