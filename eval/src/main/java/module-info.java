/**
 * The evaluator of sqlagent: question sets, a replay of recorded predictions as the model, execution
 * accuracy against gold SQL, baselines and resumable results files
 * ({@link dev.sqlagent.eval.EvaluationRunner}).
 */
module dev.sqlagent.eval {
    requires transitive dev.sqlagent.core;
    requires org.slf4j;
    requires net.sf.jsqlparser;

    exports dev.sqlagent.eval;
}
