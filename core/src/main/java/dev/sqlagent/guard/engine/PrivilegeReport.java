package dev.sqlagent.guard.engine;

import dev.sqlagent.Dialect;
import dev.sqlagent.internal.JsonTree;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the database login can do beyond the policy (from {@link PrivilegeAudit}): when any list is not
 * empty, the guard (and the engine check) are the only line of defence for it.
 *
 * @param dialect the database's dialect
 * @param login the login the database says the connection runs as
 * @param writes what lets the login write at all: privileges ({@code INSERT on hr.salaries}), admin or
 *     superuser status, a database file opened read-write
 * @param forbiddenTables tables (and views) the login can read that the policy does not allow
 * @param deniedColumns denied columns ({@code table.column}) the login can read
 * @param notes what the audit could not check, or checked only in part, on this engine
 */
public record PrivilegeReport(Dialect dialect, String login, List<String> writes, List<String> forbiddenTables,
                              List<String> deniedColumns, List<String> notes) {

    /**
     * Copies the lists.
     *
     * @param dialect the database's dialect
     * @param login the login the database says the connection runs as
     * @param writes what lets the login write at all: privileges ({@code INSERT on hr.salaries}), admin or
     *     superuser status, a database file opened read-write
     * @param forbiddenTables tables (and views) the login can read that the policy does not allow
     * @param deniedColumns denied columns ({@code table.column}) the login can read
     * @param notes what the audit could not check, or checked only in part, on this engine
     */
    public PrivilegeReport {
        Objects.requireNonNull(dialect, "dialect");
        Objects.requireNonNull(login, "login");
        writes = List.copyOf(writes);
        forbiddenTables = List.copyOf(forbiddenTables);
        deniedColumns = List.copyOf(deniedColumns);
        notes = List.copyOf(notes);
    }

    /** {@return whether the login can write, or read something the policy forbids} */
    public boolean guardIsOnlyDefence() {
        return !writes.isEmpty() || !forbiddenTables.isEmpty() || !deniedColumns.isEmpty();
    }

    /** {@return the report as one JSON object (one line)} */
    public String toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("dialect", dialect.name());
        m.put("login", login);
        m.put("least_privilege", !guardIsOnlyDefence());
        m.put("can_write", !writes.isEmpty());
        m.put("writes", writes);
        m.put("forbidden_tables_readable", forbiddenTables);
        m.put("denied_columns_readable", deniedColumns);
        m.put("notes", notes);
        return JsonTree.write(m);
    }

    /** {@return the report for people, several lines} */
    public String toText() {
        StringBuilder b = new StringBuilder();
        b.append("Database login ").append(login).append(" on ").append(dialect).append(": ")
                .append(guardIsOnlyDefence() ? "MORE PRIVILEGE THAN THE POLICY NEEDS; the guard is the only line of "
                        + "defence for what follows" : "least privilege: the database itself refuses what the policy "
                        + "forbids").append('\n');
        section(b, "can write", writes);
        section(b, "can read tables the policy does not allow", forbiddenTables);
        section(b, "can read denied columns", deniedColumns);
        section(b, "notes", notes);
        return b.toString();
    }

    private static void section(StringBuilder b, String title, List<String> items) {
        if (items.isEmpty()) {
            return;
        }
        b.append("  ").append(title).append(" (").append(items.size()).append("):\n");
        for (String i : items) {
            b.append("    - ").append(i).append('\n');
        }
    }
}
