/**
 * The sqlagent library: {@link dev.sqlagent.SqlAgent} answers a question about a database through a
 * governed process (generation, guard, read-only execution, one correction, cases, metrics).
 *
 * <p>Every package but {@code dev.sqlagent.internal} and its sub-packages is API. The agent reaches the
 * database through {@code java.sql}: a JDBC driver on the module path is found by {@code DriverManager}
 * (a driver module provides {@code java.sql.Driver}), or the host hands over its own
 * {@code DataSource}. The model is any {@link dev.sqlagent.llm.LlmClient}.
 */
@SuppressWarnings("module") // the evaluator, named below, is built after this module
module dev.sqlagent.core {
    requires transitive dev.sqlagent.spi.llm;
    requires transitive dev.sqlagent.spi.vector;
    requires transitive java.sql;
    requires org.slf4j;
    requires com.fasterxml.jackson.core;
    requires net.sf.jsqlparser;
    // SampleValues.Builder.ticker takes caffeine's Ticker: caffeine is part of this module's API
    requires transitive com.github.benmanes.caffeine;

    exports dev.sqlagent;
    exports dev.sqlagent.cases;
    exports dev.sqlagent.choose;
    exports dev.sqlagent.clean;
    exports dev.sqlagent.execution;
    exports dev.sqlagent.guard;
    exports dev.sqlagent.guard.engine;
    exports dev.sqlagent.metrics;
    exports dev.sqlagent.schema;
    exports dev.sqlagent.trace;
    exports dev.sqlagent.verify;
    // the evaluator writes and reads its JSON lines with the library's JSON tree; no one else may
    exports dev.sqlagent.internal to dev.sqlagent.eval;
}
