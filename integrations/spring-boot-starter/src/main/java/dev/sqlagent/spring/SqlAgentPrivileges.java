package dev.sqlagent.spring;

import dev.sqlagent.SqlAgent;
import dev.sqlagent.guard.engine.PrivilegeReport;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The privilege audit ({@link SqlAgent#audit()}) the starter runs once at start-up: what the agent's
 * database login can read or write beyond the policy. A login wider than the policy is logged at WARN with
 * the report (the guard and the engine check are then the only defence for what it lists); a login that
 * is not is logged at INFO. An agent that cannot be audited (a custom executor, an engine without an
 * audit) is logged at INFO, an audit that fails (the catalog cannot be read) at WARN; neither stops the
 * application. The health indicator shows the outcome in its {@code privileges} detail. Immutable.
 */
public final class SqlAgentPrivileges {

    private static final Logger LOG = LoggerFactory.getLogger(SqlAgentPrivileges.class);

    private final PrivilegeReport report;
    private final String problem;

    private SqlAgentPrivileges(PrivilegeReport report, String problem) {
        this.report = report;
        this.problem = problem;
    }

    /**
     * Audits the agent's login and logs the outcome.
     *
     * @param agent the agent
     * @return the outcome; never throws for an audit that could not be made
     * @throws NullPointerException if the agent is null
     */
    public static SqlAgentPrivileges audit(SqlAgent agent) {
        return audit(agent, LOG);
    }

    /** {@link #audit(SqlAgent)} logging to the given logger (tests read what it logs). */
    static SqlAgentPrivileges audit(SqlAgent agent, Logger log) {
        Objects.requireNonNull(agent, "agent");
        try {
            PrivilegeReport r = agent.audit();
            if (r.guardIsOnlyDefence()) {
                log.warn("sqlagent: the database login can do more than the policy allows; the guard is the only"
                        + " line of defence for what follows (give the agent a login that cannot, see"
                        + " docs/security.md):\n{}", r.toText());
            } else {
                log.info("sqlagent: {}", r.toText());
            }
            return new SqlAgentPrivileges(r, null);
        } catch (IllegalStateException e) {
            log.info("sqlagent: the database login's privileges are not audited: {}", e.getMessage());
            return new SqlAgentPrivileges(null, "not audited: " + e.getMessage());
        } catch (SQLException e) {
            log.warn("sqlagent: the privilege audit failed: {}", e.toString());
            return new SqlAgentPrivileges(null, "audit failed: " + e.getMessage());
        }
    }

    /**
     * Returns the report.
     *
     * @return the audit's report, or empty when no audit could be made ({@link #problem()} says why)
     */
    public Optional<PrivilegeReport> report() {
        return Optional.ofNullable(report);
    }

    /**
     * Returns why there is no report.
     *
     * @return why no audit could be made, or empty when there is a report
     */
    public Optional<String> problem() {
        return Optional.ofNullable(problem);
    }

    /**
     * Returns the outcome as health details.
     *
     * @return {@code leastPrivilege}, {@code login}, {@code writes}, {@code forbiddenTablesReadable},
     *     {@code deniedColumnsReadable} and {@code notes}; or {@code audited=false} and {@code reason}
     */
    public Map<String, Object> details() {
        Map<String, Object> d = new LinkedHashMap<>();
        if (report == null) {
            d.put("audited", false);
            d.put("reason", problem);
            return d;
        }
        d.put("audited", true);
        d.put("leastPrivilege", !report.guardIsOnlyDefence());
        d.put("login", report.login());
        d.put("writes", report.writes());
        d.put("forbiddenTablesReadable", report.forbiddenTables());
        d.put("deniedColumnsReadable", report.deniedColumns());
        d.put("notes", report.notes());
        return d;
    }

    @Override
    public String toString() {
        return "SqlAgentPrivileges" + details();
    }
}
