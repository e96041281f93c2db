package dev.sqlagent.guard;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.create.table.ColDataType;

/**
 * The checks of the tree's leaves, each refusing what the closed-world policy does not allow: column names, the
 * probes written without parentheses, string literals (respelled where a backslash escapes), cast types (a
 * catalog type, or one the database defines a cast to), operators, the folding of names, and calls by the
 * function policy.
 */
final class LeafChecks {

    /** The analysis this checks for: its policy, engine and violations. */
    private final AstAnalyzer a;

    LeafChecks(AstAnalyzer a) {
        this.a = a;
    }

    void checkColumnName(Column column) {
        String name = column.getColumnName();
        if (name == null) {
            return;
        }
        checkFolding(name);
        String n = Names.fold(name, a.dialect);
        if (n.equals("nextval") || n.equals("currval")) {
            a.violation(ViolationType.FUNCTION_NOT_ALLOWED, column.toString(), "sequence access is not allowed");
        }
        Table q = column.getTable();
        if ((q == null || q.getName() == null) && !Names.isQuoted(name)) {
            checkProbeKeyword(name, column);
        }
    }

    /**
     * Session and catalog probes written as keywords, without parentheses ({@code current_user},
     * {@code user}, {@code current_schema}): the database reads them as calls, whatever the parser reads.
     */
    void checkProbeKeyword(String word, Object node) {
        String n = Names.lower(word.trim());
        if (FunctionPolicy.probeKeywords(a.dialect).contains(n) && !a.policy.functionPolicy().allowsProbe(n)) {
            a.violation(ViolationType.FUNCTION_NOT_ALLOWED, String.valueOf(node),
                    "session and catalog probes are not allowed: " + n);
        }
    }

    /**
     * MySQL and MariaDB read a backslash in a string as an escape unless {@code NO_BACKSLASH_ESCAPES} is
     * set. The string to run is spelled so that both settings read it alike: the escapes are decoded as
     * the default setting reads them and the value is written back with {@code ''} as the only escape.
     * A value that still holds a backslash ({@code \%}, {@code \\}) cannot be spelled that way and is
     * refused.
     */
    void respellMySqlString(StringValue string) {
        String v = string.getValue();
        if (v == null || v.indexOf('\\') < 0 || !"'".equals(string.getQuoteStr() == null ? "'" : string.getQuoteStr())) {
            return;
        }
        StringBuilder out = new StringBuilder(v.length());
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c == '\'' && i + 1 < v.length() && v.charAt(i + 1) == '\'') {
                out.append('\'');
                i++;
                continue;
            }
            if (c != '\\' || i + 1 == v.length()) {
                out.append(c);
                continue;
            }
            char e = v.charAt(++i);
            switch (e) {
                case '0': out.append('\0'); break;
                case 'b': out.append('\b'); break;
                case 'n': out.append('\n'); break;
                case 'r': out.append('\r'); break;
                case 't': out.append('\t'); break;
                case 'Z': out.append((char) 26); break;
                case '%': case '_': case '\\':
                    a.violation(ViolationType.UNSAFE_STRING_LITERAL, string.toString(),
                            "a MySQL string holding a backslash reads differently under NO_BACKSLASH_ESCAPES");
                    return;
                default: out.append(e);
            }
        }
        String decoded = out.toString();
        for (int i = 0; i < decoded.length(); i++) {
            char c = decoded.charAt(i);
            if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
                a.violation(ViolationType.SUSPICIOUS_CHARACTER, string.toString(), "a string holding a control character");
                return;
            }
        }
        // '' doubles a quote in both settings
        string.setValue(decoded.replace("'", "''"));
    }

    /**
     * Casts to PostgreSQL's object-identifier types ({@code 't'::regclass}, {@code ::oid}, their array spellings
     * {@code _regclass} and {@code regclass[]}) read the catalog; on PostgreSQL a cast to a table's row type
     * ({@code NULL::audit_log}) reveals its a.columns and is read as that table, and a domain as its base type.
     */
    void checkCastType(ColDataType type) {
        DatabaseObjectRules.TypeName tn = DatabaseObjectRules.typeName(type);
        for (String t : tn.names()) {
            if (DatabaseObjectRules.catalogType(t) && !a.policy.functionPolicy().allowsProbe(t)) {
                a.violation(ViolationType.FUNCTION_NOT_ALLOWED, type.toString(), "casts to catalog types are not allowed: " + t);
                return;
            }
        }
        if (a.engine.castsMayCallDatabaseFunctions()) {
            List<DatabaseObjects.Routine> casts = a.policy.databaseObjects().castsTo(DatabaseObjectRules.pgTypeName(tn.name()));
            if (!casts.isEmpty() && !DatabaseObjectRules.allowed(casts, a.policy)) {
                a.violation(ViolationType.FUNCTION_NOT_ALLOWED, type.toString(), "a cast to " + tn.name()
                        + " may call a function the database defines itself: " + DatabaseObjectRules.signatures(casts));
                return;
            }
            checkRowType(tn.schema(), tn.names(), type, 0);
        }
    }

    /** A type that is a table's row type, or a domain over a refused type, is refused like what it reveals. */
    void checkRowType(String schema, List<String> names, Object node, int depth) {
        if (depth > 8) {
            a.violation(ViolationType.FUNCTION_NOT_ALLOWED, String.valueOf(node), "a type defined over too many domains");
            return;
        }
        for (String n : names) {
            if (schema == null && DatabaseObjectRules.pgBuiltinType(n)) {
                continue;
            }
            String key = schema == null ? n : schema + "." + n;
            Set<String> relations = new LinkedHashSet<>();
            // pg_catalog holds no table of the policy's; a domain a superuser created there is among the
            // database's own types (told by its OID), looked up below as any other
            if (!"pg_catalog".equals(schema) && (a.policy.namesTable(n) || a.policy.knownTables().contains(key))) {
                relations.add(key);
            }
            for (DatabaseObjects.Type t : a.policy.databaseObjects().types(schema, n)) {
                if (!a.policy.allowedDatabaseFunctions().containsAll(t.checks())) {
                    a.violation(ViolationType.FUNCTION_NOT_ALLOWED, String.valueOf(node), "a cast to domain " + key
                            + " runs the database's own functions in its constraints: " + t.checks());
                    return;
                }
                if (t.relation() != null) {
                    relations.add(t.relation());
                } else if (t.base() != null) {
                    String base = t.base();
                    int dot = base.lastIndexOf('.');
                    String bare = dot < 0 ? base : base.substring(dot + 1);
                    if (DatabaseObjectRules.catalogType(bare)) {
                        a.violation(ViolationType.FUNCTION_NOT_ALLOWED, String.valueOf(node),
                                "a domain over a catalog type: " + key + " over " + base);
                        return;
                    }
                    checkRowType(dot < 0 ? null : base.substring(0, dot), List.of(bare), node, depth + 1);
                }
            }
            for (String r : relations) {
                String bare = r.substring(r.lastIndexOf('.') + 1);
                String allowedKey = a.policy.allowsTable(r) ? r : a.policy.allowsTable(bare) ? bare : null;
                if (allowedKey == null || a.policy.deniedColumns().containsKey(allowedKey)
                        || a.policy.deniedColumns().containsKey(r)) {
                    a.violation(ViolationType.TABLE_NOT_ALLOWED, String.valueOf(node), "the row type of table " + r
                            + " reveals its a.columns; only an allowed table without denied a.columns may be named as a type");
                    return;
                }
            }
        }
    }

    /** An operator the database defines itself may bind instead of the engine's (fail closed, any types). */
    void checkOperators(Object node) {
        for (String symbol : DatabaseObjectRules.operatorSymbols(node)) {
            List<DatabaseObjects.Routine> own = a.policy.databaseObjects().operators(symbol);
            if (!own.isEmpty() && !DatabaseObjectRules.allowed(own, a.policy)) {
                a.violation(ViolationType.FUNCTION_NOT_ALLOWED, AstAnalyzer.shorten(String.valueOf(node)), "operator not allowed: "
                        + symbol + " (the database defines " + DatabaseObjectRules.signatures(own)
                        + " itself, which may bind instead of a built-in; allowDatabaseFunction names it)");
                return;
            }
        }
    }

    /** A name the a.engine and Java would fold differently (U+212A KELVIN SIGN, U+017F LONG S) is refused. */
    void checkFolding(String name) {
        if (!Names.foldsAlike(name)) {
            a.violation(ViolationType.SUSPICIOUS_CHARACTER, name, "a name that folds differently in the database");
        }
    }

    void checkFunction(List<String> nameParts, Object node) {
        List<String> parts = new ArrayList<>();
        if (nameParts != null) {
            for (String p : nameParts) {
                if (p != null) {
                    parts.add(Names.unquote(p));
                }
            }
        }
        FunctionPolicy.Decision decision = a.policy.functionPolicy().decide(parts, a.dialect);
        List<DatabaseObjects.Routine> own = DatabaseObjectRules.binding(parts, a.dialect, a.policy);
        if (!own.isEmpty() && (!DatabaseObjectRules.allowed(own, a.policy)
                || decision.functionClass().map(FunctionClass::safe).orElse(true))) {
            // the database's own function of that name may bind instead of the engine's (fail closed)
            if (!DatabaseObjectRules.allowed(own, a.policy)) {
                a.violation(ViolationType.FUNCTION_NOT_ALLOWED, String.join(".", parts), "function not allowed: "
                        + String.join(".", parts) + " (the database defines " + DatabaseObjectRules.signatures(own)
                        + " itself, which may bind instead of a built-in; allowDatabaseFunction names it)");
            }
            ResourceBounds.check(node, a.dialect, a.policy).ifPresent(v -> a.violation(v.type(), v.fragment(), v.message()));
            return;
        }
        if (decision.verdict() == FunctionPolicy.Verdict.UNKNOWN) {
            // an invented name, not a violation: corrected like the engine's "no such function", never run
            a.violation(ViolationType.UNKNOWN_FUNCTION, String.join(".", parts), decision.reason()
                    + decision.hint().map(h -> "; use " + h).orElse(""));
        } else if (!decision.allowed()) {
            a.violation(ViolationType.FUNCTION_NOT_ALLOWED, String.join(".", parts),
                    "function not allowed: " + String.join(".", parts) + " (" + decision.reason() + ")");
        }
        ResourceBounds.check(node, a.dialect, a.policy).ifPresent(v -> a.violation(v.type(), v.fragment(), v.message()));
    }
}
