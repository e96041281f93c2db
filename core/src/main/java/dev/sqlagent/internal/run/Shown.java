package dev.sqlagent.internal.run;

import dev.sqlagent.Dialect;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.guard.SqlGuard;
import dev.sqlagent.internal.SqlTokens;
import dev.sqlagent.schema.SchemaCatalog;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Decides whether a SQL from the case library (an example, or either side of a past repair) may be shown
 * to a model under the question's policy. The guard reads it: an accepted SQL reads only what the policy
 * allows. A repair's wrong SQL may also be one that never ran (unparseable, or naming only tables the
 * database lacks); such SQL is shown only when none of its words is a table the policy forbids or a
 * column it denies. Anything else, a policy violation above all, is never shown. Stateless; one per agent.
 */
final class Shown {

    private final SqlGuard guard;
    private final Dialect dialect;

    Shown(SqlGuard guard, Dialect dialect) {
        this.guard = guard;
        this.dialect = dialect;
    }

    /**
     * @param sql a SQL from the case library
     * @param state the question's state (its policy and catalog)
     * @return whether it may be shown as an example or a repair's fixed SQL: the guard accepts it
     */
    boolean runnable(String sql, RunState state) {
        return sql != null && guard.check(sql, state.policy(), dialect) instanceof GuardVerdict.Accepted;
    }

    /**
     * @param sql a repair's wrong SQL
     * @param state the question's state
     * @return whether it may be shown: accepted, or unrunnable without naming anything forbidden
     */
    boolean wrong(String sql, RunState state) {
        if (sql == null) {
            return false;
        }
        GuardVerdict v = guard.check(sql, state.policy(), dialect);
        if (v instanceof GuardVerdict.Accepted) {
            return true;
        }
        boolean unrunnable = v instanceof GuardVerdict.Unparseable || (v instanceof GuardVerdict.Rejected r
                && !StateMachine.inventedNames(r, state.catalog()::databaseHasTable).isEmpty());
        return unrunnable && !namesAnythingForbidden(sql, state.policy(), state.catalog());
    }

    private static boolean namesAnythingForbidden(String sql, GuardPolicy policy, SchemaCatalog catalog) {
        for (String token : SqlTokens.of(sql)) {
            String word = unquoted(token);
            if (word.isEmpty()) {
                continue;
            }
            if (catalog.databaseHasTable(word) && !policy.allowsTable(word)) {
                return true;
            }
            for (Map.Entry<String, Set<String>> e : policy.deniedColumns().entrySet()) {
                for (String c : e.getValue()) {
                    if (c.equalsIgnoreCase(word)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static String unquoted(String token) {
        char c = token.charAt(0);
        if (c == '\'' || !(Character.isLetter(c) || c == '_' || c == '"' || c == '`' || c == '[')) {
            return "";
        }
        String t = c == '"' || c == '`' || c == '[' ? token.substring(1, Math.max(1, token.length() - 1)) : token;
        return t.toLowerCase(Locale.ROOT);
    }
}
