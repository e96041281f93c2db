package dev.sqlagent.mcp;

import dev.sqlagent.guard.GuardPolicy;
import java.util.Objects;

/**
 * One connection's identity as the server knows it: a name for logs (never the token) and the policy its
 * calls are held to.
 *
 * @param name the client's name in logs and audits
 * @param policy the policy of its {@code query}, {@code ask} and {@code describe} calls
 */
record Client(String name, GuardPolicy policy) {

    /** The key of the authenticated client in an HTTP request's attributes and in the MCP transport context. */
    static final String KEY = "dev.sqlagent.mcp.client";

    Client {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(policy, "policy");
    }
}
