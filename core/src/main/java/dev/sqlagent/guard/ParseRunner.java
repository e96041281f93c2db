package dev.sqlagent.guard;

import dev.sqlagent.engine.SqlLexer;
import dev.sqlagent.Dialect;
import dev.sqlagent.engine.Engines;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import net.sf.jsqlparser.parser.CCJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.ParseException;
import net.sf.jsqlparser.parser.Token;
import net.sf.jsqlparser.parser.TokenMgrException;
import net.sf.jsqlparser.statement.Statements;

/**
 * Parses on the caller's thread. JSqlParser's own {@code CCJSqlParserUtil.parse} starts a thread per
 * call to enforce its time-out; here a shared {@link ParseWatchdog} only raises the parser's
 * {@code interrupted} flag when the time is up, which the parser polls and stops on.
 */
final class ParseRunner {

    /** The parser ran out of time. */
    static final class TimedOut extends Exception {
        private static final long serialVersionUID = 1L;

        TimedOut() {
            super("parse time-out", null, false, false);
        }
    }

    /** The SQL does not parse. */
    static final class Failed extends Exception {
        private static final long serialVersionUID = 1L;

        Failed(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * A parse: the statements and the parser's first token, whose {@code next} chain holds every token
     * the parser read (for {@link dev.sqlagent.engine.SqlLexer#align}).
     */
    record Parsed(Statements statements, Token first) {
    }

    private final ParseWatchdog watchdog;

    ParseRunner(java.util.function.Supplier<ScheduledExecutorService> scheduler) {
        this.watchdog = new ParseWatchdog(scheduler);
    }

    /**
     * Parsing is pure CPU work: more parses at once than cores only stretches each one's wall time, and the
     * cap is measured in wall time. Without this bound, 200 questions parsed at once on two cores (virtual
     * threads make that easy) each took over the 2 s cap and were rejected as parse time-outs. A parse's
     * deadline starts once it holds a permit, so the cap measures the parse, not the queue before it.
     */
    private static final java.util.concurrent.Semaphore CORES = new java.util.concurrent.Semaphore(
            Math.max(1, Runtime.getRuntime().availableProcessors()));

    Parsed parse(String sql, Dialect dialect, Duration timeout) throws TimedOut, Failed {
        Warm.ensure();
        CORES.acquireUninterruptibly();
        try {
            return parseWithin(sql, dialect, System.nanoTime() + timeout.toNanos());
        } finally {
            CORES.release();
        }
    }

    private Parsed parseWithin(String sql, Dialect dialect, long deadline) throws TimedOut, Failed {
        try {
            return parseOnce(sql, dialect, false, deadline);
        } catch (Failed simple) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new TimedOut();
            }
            // the simple grammar refuses some valid SQL; the complex one accepts more, more slowly
            try {
                return parseOnce(sql, dialect, true, deadline);
            } catch (Failed complex) {
                throw simple;
            }
        }
    }

    /**
     * JSqlParser's first parse in a JVM loads and initialises its classes: over a second on a loaded
     * two-core machine, enough to turn the first statement of a process into a parse time-out. Done once
     * here, before any deadline starts, so that the cap measures parsing.
     */
    private static final class Warm {
        private static final String SQL = "WITH c AS (SELECT a, COUNT(*) AS n FROM t JOIN u ON t.id = u.id"
                + " WHERE a IN (1, 2) AND b LIKE 'x%' AND d BETWEEN 1 AND 2 AND e IS NOT NULL GROUP BY a"
                + " HAVING COUNT(*) > 1) SELECT a, n, CASE WHEN n > 1 THEN 'y' ELSE 'n' END,"
                + " ROW_NUMBER() OVER (ORDER BY n DESC) FROM c ORDER BY a LIMIT 10";

        static {
            try {
                CCJSqlParserUtil.newParser(SQL).withAllowComplexParsing(true).Statements();
            } catch (ParseException | RuntimeException e) {
                // only the loading mattered
            }
        }

        private Warm() {
        }

        static void ensure() {
            // initialising this class ran the static block, once per JVM
        }
    }

    /**
     * The parser's lexical switches, set from the dialect so that it tokenizes as the engine does:
     * {@code […]} is a quoted identifier on SQLite and SQL Server, a backslash escapes in MySQL and
     * MariaDB strings. Hash comments and dollar-quoted tags stay off (the lexer refuses both).
     */
    static CCJSqlParser newParser(String sql, Dialect dialect, boolean complex) {
        return CCJSqlParserUtil.newParser(sql)
                .withAllowComplexParsing(complex)
                .withSquareBracketQuotation(Engines.of(dialect).guard().squareBracketQuotes())
                .withBackslashEscapeCharacter(Engines.of(dialect).guard().backslashEscapes())
                .withHashLineComments(false)
                .withDollarQuotedStringTags(false);
    }

    private Parsed parseOnce(String sql, Dialect dialect, boolean complex, long deadlineNanos)
            throws TimedOut, Failed {
        dev.sqlagent.internal.Work.PARSE.count();
        CCJSqlParser parser = newParser(sql, dialect, complex);
        Token first = parser.token;
        watchdog.watch(parser, deadlineNanos);
        Statements statements;
        try {
            statements = parser.Statements();
        } catch (ParseException | TokenMgrException e) {
            if (parser.interrupted) {
                throw new TimedOut();
            }
            throw new Failed(String.valueOf(e.getMessage()));
        } catch (RuntimeException e) {
            if (parser.interrupted) {
                throw new TimedOut();
            }
            throw new Failed(e.getClass().getSimpleName() + ": " + e.getMessage());
        } finally {
            watchdog.release(parser);
        }
        if (parser.interrupted) {
            // an interrupted parse may return a truncated tree: never use it
            throw new TimedOut();
        }
        return new Parsed(statements, first);
    }
}
