package dev.sqlagent.mcp;

import dev.sqlagent.guard.engine.PrivilegeReport;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The MCP server refuses to start: the database login can read what a client's policy forbids, or write at
 * all, so the guard and the engine check would be the only line of defence for it, and the host did not
 * accept that with {@link SqlAgentMcpServer.Builder#allowBroadLogin(boolean) allowBroadLogin(true)}. The
 * reports say what the login can do beyond each client's policy.
 */
public final class LoginTooBroadException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** The reports, by client name; not serialised. */
    private final transient Map<String, PrivilegeReport> reports;

    /**
     * Creates the exception.
     *
     * @param message what was found and how to fix or accept it
     * @param reports the privilege reports that go beyond a policy, by client name
     */
    public LoginTooBroadException(String message, Map<String, PrivilegeReport> reports) {
        super(message);
        this.reports = Collections.unmodifiableMap(new LinkedHashMap<>(reports));
    }

    /**
     * Returns the reports that go beyond a client's policy.
     *
     * @return the reports, by client name ({@code stdio}, or the name of an HTTP client); empty after
     *     deserialisation
     */
    public Map<String, PrivilegeReport> reports() {
        return reports == null ? Map.of() : reports;
    }
}
