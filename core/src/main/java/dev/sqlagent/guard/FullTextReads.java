package dev.sqlagent.guard;

import java.util.ArrayList;
import java.util.List;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;

/**
 * Full-text search read by the analysis: the {@code MATCH} operator held as {@code MATCH_ANY} and the auxiliary
 * functions over a full-text table ({@link dev.sqlagent.engine.EngineGuard#fts5()}): what they may name, and
 * the read of the table's whole row they are.
 */
final class FullTextReads {

    /** The analysis this reads for: its policy, engine, scope, violations and walk. */
    private final AstAnalyzer a;

    FullTextReads(AstAnalyzer a) {
        this.a = a;
    }

    /**
     * SQLite's {@code left MATCH right}, held by the parser as {@code left MATCH_ANY right}
     * ({@link dev.sqlagent.engine.Respelled#matches}): the left operand must be a column of an FTS5 table the statement reads, or the table's hidden column that
     * stands for its whole row (a read of every column); never {@code rank}, whose {@code MATCH} chooses a ranking
     * function by text. Both operands are then walked like any expression (a subquery on the right like any).
     */
    void match(net.sf.jsqlparser.expression.operators.relational.LikeExpression like, NameScope.Ctes scope) {
        if (!a.engine.fts5() || a.matchMarkers <= 0) {
            a.violation(ViolationType.UNSUPPORTED_CONSTRUCT, like.toString(),
                    "MATCH_ANY is read only as SQLite's MATCH, respelled by the guard");
            return;
        }
        a.matchMarkers--;
        String problem = null;
        NameScope.Source target = like.getLeftExpression() instanceof Column c ? fts5Source(c) : null;
        if (like.isNot() || like.getEscape() != null || like.isUseBinary()) {
            problem = "MATCH takes no NOT, ESCAPE or BINARY here";
        } else if (target == null) {
            problem = "the left operand of MATCH must be an FTS5 table of the statement's FROM or one of its columns"
                    + " (SQLite refuses MATCH anywhere else)";
        } else if (NameScope.fold(((Column) like.getLeftExpression()).getColumnName(), a.dialect).equals("rank")) {
            problem = "rank MATCH … chooses an FTS5 ranking function by text; not allowed";
        }
        if (problem != null) {
            a.violation(ViolationType.UNSUPPORTED_CONSTRUCT, like.toString(), problem);
            return;
        }
        a.walk(like.getLeftExpression(), like, scope);
        a.walk(like.getRightExpression(), like, scope);
    }

    /**
     * An FTS5 auxiliary function ({@link dev.sqlagent.engine.EngineGuard#fullTextFunction}) on SQLite: its first argument must be the hidden column of an FTS5
     * table of the statement's FROM (a read of that table's whole row), its markers bounded string constants, its
     * call plain; decided by {@link FunctionPolicy#decideFts5Auxiliary}. Its arguments are walked like any.
     */
    void fts5Auxiliary(Function f, NameScope.Ctes scope) {
        String name = a.engine.fullTextFunction(f);
        net.sf.jsqlparser.expression.operators.relational.ExpressionList<?> params = f.getParameters();
        String problem = null;
        if (!AstAnalyzer.plainCall(f) || params == null || params.isEmpty()) {
            problem = name + " takes plain arguments, the FTS5 table first";
        } else {
            Object first = params.get(0);
            NameScope.Source s = first instanceof Column c ? fts5Source(c) : null;
            if (s == null || !NameScope.fold(((Column) first).getColumnName(), a.dialect).equals(s.fts5)) {
                problem = name + "'s first argument must be an FTS5 table of the statement's FROM, by its own name ("
                        + name + "(t, …))";
            } else if (a.engine.fullTextArity(name) > 0 && params.size() != a.engine.fullTextArity(name)) {
                problem = name + " takes " + a.engine.fullTextArity(name) + " arguments";
            } else {
                for (int i : a.engine.fullTextMarkers(name)) {
                    Object m = params.get(i);
                    if (!(m instanceof net.sf.jsqlparser.expression.NullValue) && !(m instanceof StringValue sv
                            && sv.getValue() != null && sv.getValue().length() <= a.engine.maxFullTextMarker())) {
                        problem = "the markers of " + name + " must be string constants of at most "
                                + a.engine.maxFullTextMarker() + " characters";
                        break;
                    }
                }
            }
        }
        if (problem != null) {
            a.violation(ViolationType.FUNCTION_NOT_ALLOWED, f.toString(), problem);
            return;
        }
        FunctionPolicy.Decision decision = a.policy.functionPolicy().decideFts5Auxiliary(name, a.dialect);
        if (!decision.allowed()) {
            a.violation(ViolationType.FUNCTION_NOT_ALLOWED, name, "function not allowed: " + name + " ("
                    + decision.reason() + ")");
            return;
        }
        a.walk(params, f, scope);
    }

    /**
     * The source a column a.names when it is a column or a hidden column of an FTS5 table, resolved as
     * {@link #resolve} does (innermost query first); null when it a.names anything else, or may (an ambiguous name).
     */
    NameScope.Source fts5Source(Column c) {
        if (a.frame == null || c.getColumnName() == null) {
            return null;
        }
        String name = NameScope.fold(c.getColumnName(), a.dialect);
        Table q = c.getTable();
        for (NameScope.Frame f = a.frame; f != null; f = f.parent) {
            List<NameScope.Source> found = new ArrayList<>();
            if (q != null && q.getName() != null) {
                found.addAll(a.names.qualifiedAll(f.sources, q));
            } else {
                for (NameScope.Source s : f.sources) {
                    if (s.has(name) || s.hidden(name) || s.columns == null) {
                        found.add(s);
                    }
                }
            }
            if (found.isEmpty()) {
                continue;
            }
            if (found.size() != 1) {
                return null;
            }
            NameScope.Source s = found.get(0);
            return s.fts5 != null && (s.has(name) || s.hidden(name)) ? s : null;
        }
        return null;
    }
}
