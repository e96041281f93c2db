package dev.sqlagent.guard;

import java.util.ArrayList;
import java.util.List;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.statement.select.AllColumns;

/**
 * The SQL/JSON constructors the parser reads as nodes of their own ({@code JSON_OBJECT}, {@code JSON_ARRAY},
 * {@code JSON_OBJECTAGG}, {@code JSON_ARRAYAGG}): only the forms each engine reads alike are analysed, each
 * engine's own forms by its {@link dev.sqlagent.engine.EngineGuard} hooks.
 */
final class JsonConstructs {

    /** The analysis this reads for: its policy, engine, scope, violations and walk. */
    private final AstAnalyzer a;

    JsonConstructs(AstAnalyzer a) {
        this.a = a;
    }

    /**
     * {@code JSON_OBJECT(…)} and {@code JSON_ARRAY(…)}, which the parser reads as a node of its own: decided by
     * the function a.policy like a call of {@code json_object} or {@code json_array}, and every key and value
     * walked like a call's arguments. Only the forms each a.engine reads alike are analysed: pairs separated by a
     * comma ({@code 'k', v}) everywhere; {@code 'k' : v}, {@code 'k' VALUE v} and {@code NULL|ABSENT ON NULL},
     * {@code WITH|WITHOUT UNIQUE KEYS} on H2 and PostgreSQL, whose {@code JSON_OBJECT} has them;
     * {@code KEY 'k' VALUE v} on H2 only. {@code FORMAT JSON}, {@code ENCODING}, {@code RETURNING}, {@code STRICT},
     * a key without a value, a star and a prefixed string as a key are refused. A key written as a string is
     * held by the parser as bare text: it is made a string literal of the tree, so that it is checked and
     * printed like any other (on MySQL and MariaDB respelled for both backslash settings).
     */
    void jsonFunction(net.sf.jsqlparser.expression.JsonFunction f, NameScope.Ctes scope) {
        if ((f.getType() == net.sf.jsqlparser.expression.JsonFunctionType.QUERY
                || f.getType() == net.sf.jsqlparser.expression.JsonFunctionType.VALUE) && a.engine.sqlJsonQueries()) {
            jsonQuery(f, scope);
            return;
        }
        boolean standard = a.engine.standardJson();
        String name = f.getType() == net.sf.jsqlparser.expression.JsonFunctionType.OBJECT ? "json_object"
                : f.getType() == net.sf.jsqlparser.expression.JsonFunctionType.ARRAY ? "json_array" : null;
        String problem = null;
        if (name == null) {
            problem = "of the JSON functions the parser reads apart, only JSON_OBJECT and JSON_ARRAY are analysed";
        } else if (f.isStrict() || f.getReturningType() != null || f.isReturningFormatJson()
                || f.getReturningEncoding() != null || !f.getPassingExpressions().isEmpty()
                || !f.getAdditionalQueryPathArguments().isEmpty() || f.getInputExpression() != null
                || f.getJsonPathExpression() != null || f.getOnEmptyBehavior() != null || f.getOnErrorBehavior() != null
                || f.getWrapperType() != null || f.getWrapperMode() != null || f.isWrapperArray()
                || f.getQuotesType() != null || f.isQuotesOnScalarString() || f.getScalarsType() != null) {
            problem = "STRICT, RETURNING and the other clauses of " + name + " are not analysed";
        } else if ((f.getOnNullType() != null || f.getUniqueKeysType() != null) && !standard) {
            problem = "ON NULL and UNIQUE KEYS in " + name + " are analysed only on H2 and PostgreSQL";
        } else if (name.equals("json_array") && !f.getKeyValuePairs().isEmpty()
                || name.equals("json_object") && !f.getExpressions().isEmpty()) {
            problem = "a mixed form of " + name;
        }
        List<Object> parts = new ArrayList<>();
        if (problem == null) {
            for (net.sf.jsqlparser.expression.JsonFunctionExpression e : f.getExpressions()) {
                if (e.isUsingFormatJson() || e.getEncoding() != null) {
                    problem = "FORMAT JSON and ENCODING are not analysed";
                    break;
                }
                parts.add(e.getExpression());
            }
        }
        List<net.sf.jsqlparser.expression.JsonKeyValuePair> pairs = f.getKeyValuePairs();
        for (int i = 0; problem == null && i < pairs.size(); i++) {
            net.sf.jsqlparser.expression.JsonKeyValuePair p = pairs.get(i);
            net.sf.jsqlparser.expression.JsonKeyValuePairSeparator sep = p.getSeparator();
            Object key = p.getKey();
            if (p.isUsingFormatJson() || p.getEncoding() != null) {
                problem = "FORMAT JSON and ENCODING are not analysed";
            } else if ((p.getValue() == null || sep == net.sf.jsqlparser.expression.JsonKeyValuePairSeparator.NOT_USED)
                    && !(a.engine.jsonObjectOfArray() && pairs.size() == 1 && p.getValue() == null
                    && key instanceof String && !p.isUsingKeyKeyword())) {
                // PostgreSQL's json_object(text[]) is the one form with a single argument
                problem = "a key without a value in " + name;
            } else if (sep != net.sf.jsqlparser.expression.JsonKeyValuePairSeparator.COMMA && !standard) {
                problem = "a key and its value are separated by a comma here ('k', v)";
            } else if (p.isUsingKeyKeyword() && !a.engine.jsonKeyValueKeyword()) {
                problem = "KEY 'k' VALUE v is analysed only on H2";
            } else if (key instanceof AllColumns) {
                problem = "a star in " + name;
            } else if (key instanceof String) {
                String text = (String) key;
                if (text.length() < 2 || text.charAt(0) != '\'' || text.charAt(text.length() - 1) != '\'') {
                    problem = "a key of " + name + " is a plain string literal or a name, not " + text;
                } else {
                    net.sf.jsqlparser.expression.JsonKeyValuePair literal = new net.sf.jsqlparser.expression
                            .JsonKeyValuePair(new StringValue(text), p.getValue(), p.isUsingKeyKeyword(), sep);
                    pairs.set(i, literal);
                    parts.add(literal.getKey());
                    if (literal.getValue() != null) {
                        parts.add(literal.getValue());
                    }
                }
            } else if (key instanceof net.sf.jsqlparser.expression.Expression) {
                parts.add(key);
                parts.add(p.getValue());
            } else {
                problem = "a key of " + name + " the guard does not read: " + key;
            }
        }
        if (problem != null) {
            a.violation(ViolationType.UNSUPPORTED_CONSTRUCT, f.toString(), problem);
            return;
        }
        a.leaves.checkFunction(List.of(name), f);
        for (Object part : parts) {
            a.walk(part, f, scope);
        }
    }

    /**
     * {@code JSON_QUERY(x, 'path')} and {@code JSON_VALUE(x, 'path')} where the engine reads them
     * ({@link dev.sqlagent.engine.EngineGuard#sqlJsonQueries}): only with a string literal path over the one input
     * ({@code lax $.a}), which reads nothing but that input; {@code PASSING} (values the path reads), {@code FORMAT},
     * {@code RETURNING}, the wrapper, quotes and {@code ON EMPTY}/{@code ON ERROR} clauses (a default there is an
     * expression) are refused. Decided by the function policy as a call of {@code json_query} or {@code json_value};
     * the input and the path are walked like a call's arguments.
     */
    private void jsonQuery(net.sf.jsqlparser.expression.JsonFunction f, NameScope.Ctes scope) {
        String name = f.getType() == net.sf.jsqlparser.expression.JsonFunctionType.QUERY ? "json_query" : "json_value";
        net.sf.jsqlparser.expression.JsonFunctionExpression input = f.getInputExpression();
        if (input == null || input.getExpression() == null || input.isUsingFormatJson() || input.getEncoding() != null
                || !(f.getJsonPathExpression() instanceof StringValue) || f.isStrict()
                || !f.getPassingExpressions().isEmpty() || !f.getAdditionalQueryPathArguments().isEmpty()
                || f.getReturningType() != null || f.isReturningFormatJson() || f.getReturningEncoding() != null
                || f.getOnEmptyBehavior() != null || f.getOnErrorBehavior() != null || f.getWrapperType() != null
                || f.getWrapperMode() != null || f.isWrapperArray() || f.getQuotesType() != null
                || f.isQuotesOnScalarString() || f.getScalarsType() != null || f.getOnNullType() != null
                || f.getUniqueKeysType() != null || !f.getExpressions().isEmpty() || !f.getKeyValuePairs().isEmpty()) {
            a.violation(ViolationType.UNSUPPORTED_CONSTRUCT, f.toString(), name.toUpperCase(java.util.Locale.ROOT)
                    + " is read only as " + name.toUpperCase(java.util.Locale.ROOT) + "(x, 'path'), with no other clause");
            return;
        }
        a.leaves.checkFunction(List.of(name), f);
        a.walk(input.getExpression(), f, scope);
        a.walk(f.getJsonPathExpression(), f, scope);
    }

    /**
     * {@code JSON_ARRAYAGG(…)} and {@code JSON_OBJECTAGG(…)}, which the parser reads as a node of its own: decided
     * by the function a.policy like a call of {@code json_arrayagg} or {@code json_objectagg} (so only on an a.engine
     * whose catalog has them), and every part walked like a call's: the value, the key, the {@code ORDER BY}
     * inside, {@code FILTER} and {@code OVER}. Only the forms each a.engine reads alike are analysed:
     * {@code JSON_OBJECTAGG(k, v)} on MySQL and MariaDB; {@code k : v}, {@code [KEY] k VALUE v}, {@code NULL|ABSENT
     * ON NULL} and {@code WITH|WITHOUT UNIQUE KEYS} on H2 and PostgreSQL. {@code FORMAT JSON} is refused. A key
     * written as a string, which the parser holds as bare text, is made a string literal of the tree, checked and
     * printed like any other.
     */
    @SuppressWarnings("deprecation") // JsonFunctionType.MYSQL_OBJECT: how the parser marks JSON_OBJECTAGG(k, v)
    void jsonAggregate(net.sf.jsqlparser.expression.JsonAggregateFunction f, NameScope.Ctes scope) {
        boolean standard = a.engine.standardJson();
        net.sf.jsqlparser.expression.JsonFunctionType type = f.getType();
        boolean array = type == net.sf.jsqlparser.expression.JsonFunctionType.ARRAY;
        String name = array ? "json_arrayagg" : "json_objectagg";
        String problem = null;
        if (type == null || !array && type != net.sf.jsqlparser.expression.JsonFunctionType.OBJECT
                && type != net.sf.jsqlparser.expression.JsonFunctionType.MYSQL_OBJECT) {
            problem = "a JSON aggregate of a form the guard does not read: " + type;
        } else if (f.isUsingFormatJson()) {
            problem = "FORMAT JSON in " + name + " is not analysed";
        } else if ((f.getOnNullType() != null || f.getUniqueKeysType() != null) && !standard) {
            problem = "ON NULL and UNIQUE KEYS in " + name + " are analysed only on H2 and PostgreSQL";
        } else if (type == net.sf.jsqlparser.expression.JsonFunctionType.MYSQL_OBJECT && !a.engine.jsonObjectAggWithComma()) {
            problem = "JSON_OBJECTAGG(k, v) with a comma is analysed only on MySQL and MariaDB";
        } else if (type == net.sf.jsqlparser.expression.JsonFunctionType.OBJECT && !standard) {
            problem = "JSON_OBJECTAGG(k : v) and KEY … VALUE are analysed only on H2 and PostgreSQL";
        } else if (array && (f.getExpression() == null || f.getKey() != null || f.getValue() != null)
                || !array && (f.getExpression() != null || !(f.getValue() instanceof net.sf.jsqlparser.expression
                .Expression))) {
            problem = "a form of " + name + " the guard does not read";
        } else if (!array && f.getKey() instanceof String text) {
            if (text.length() < 2 || text.charAt(0) != '\'' || text.charAt(text.length() - 1) != '\'') {
                problem = "a key of " + name + " is a plain string literal or an expression, not " + text;
            } else {
                f.setKey(new StringValue(text));
            }
        } else if (!array && !(f.getKey() instanceof net.sf.jsqlparser.expression.Expression)) {
            problem = "a key of " + name + " the guard does not read: " + f.getKey();
        }
        if (problem != null) {
            a.violation(ViolationType.UNSUPPORTED_CONSTRUCT, f.toString(), problem);
            return;
        }
        a.leaves.checkFunction(List.of(name), f);
        a.walkFields(f, scope, null);
    }
}
