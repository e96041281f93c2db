package dev.sqlagent.internal.run;

import dev.sqlagent.AgentResult;
import dev.sqlagent.execution.ExecutionOutcome;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.internal.ConversationContext;
import dev.sqlagent.schema.SchemaCatalog;
import dev.sqlagent.trace.Stage;
import dev.sqlagent.trace.Trace;
import dev.sqlagent.trace.TraceEvent;
import dev.sqlagent.verify.JudgeVerdict;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The mutable state of one question, in one place: what the steps read and write as the question moves
 * through the stages. Not thread-safe: one instance per question, used by the thread running it (steps
 * that fan work out to other threads gather the results before touching the state).
 */
public final class RunState {

    /** A fix given by the correction, cached once it runs. */
    record PendingFix(String key, String sql) {
    }

    private final String questionId;
    private final String askedQuestion;
    private final ConversationContext conversation;
    private GuardPolicy policy;
    private final String table;
    private final String category;
    private final boolean callerSql;
    private final List<TraceEvent> events = new ArrayList<>();
    private final Map<String, Optional<JudgeVerdict>> judged = new HashMap<>();
    private String question;
    private SchemaCatalog catalog;
    private Map<String, Set<String>> selection;
    private String schemaText;
    private String plan = "";
    private List<Candidate> candidates = List.of();
    private int round;
    private List<GuardVerdict> verdicts = List.of();
    private final Map<GuardVerdict.Accepted, ExecutionOutcome.Failure> unplanned = new HashMap<>();
    private Ran chosen;
    private List<String> chosenFindings = List.of();
    private AgentResult.Answered flagged;
    private PendingFix pendingFix;
    private Outcome last;
    private Visits visits;
    private Spending spending = new Spending(dev.sqlagent.QuestionBudget.unlimited(),
            new dev.sqlagent.internal.RunScope());

    /**
     * @param questionId the question's id
     * @param question the question as asked
     * @param conversation the conversation it belongs to, or null
     * @param policy the effective policy (the request's or the agent's)
     * @param table the host's table label, or empty
     * @param category the host's category label, or empty
     */
    public RunState(String questionId, String question, ConversationContext conversation, GuardPolicy policy,
            String table, String category) {
        this(questionId, question, conversation, policy, table, category, false);
    }

    /**
     * @param questionId the question's id
     * @param question the question as asked, or the SQL when {@code callerSql}
     * @param conversation the conversation it belongs to, or null
     * @param policy the effective policy (the request's or the agent's)
     * @param table the host's table label, or empty
     * @param category the host's category label, or empty
     * @param callerSql whether {@code question} is SQL written by the caller, to be guarded and run as it is:
     *     no model call, no correction
     */
    public RunState(String questionId, String question, ConversationContext conversation, GuardPolicy policy,
            String table, String category, boolean callerSql) {
        this.callerSql = callerSql;
        this.questionId = questionId;
        this.askedQuestion = question;
        this.question = question;
        this.conversation = conversation;
        this.policy = policy;
        this.table = table;
        this.category = category;
    }

    /** @return the question's id */
    public String questionId() {
        return questionId;
    }

    /**
     * @return whether the question's text is SQL written by the caller ({@code SqlAgent.query}): it is guarded
     *     and run as it is, with no model call, no verifier or judge and never a correction
     */
    public boolean callerSql() {
        return callerSql;
    }

    /** @return the question as the user asked it */
    String askedQuestion() {
        return askedQuestion;
    }

    /** @return the question, as rewritten when it was a follow-up */
    public String question() {
        return question;
    }

    void rewriteQuestion(String rewritten) {
        question = rewritten;
    }

    /** @return the question's visits to the database, or null before the first */
    Visits visits() {
        return visits;
    }

    void visits(Visits v) {
        visits = v;
    }

    /** Gives back a connection the question holds between its engine check and its execution. */
    void releaseConnection() {
        if (visits != null) {
            visits.release();
        }
    }

    /** @return what the question spent against its budget, and its scope */
    Spending spending() {
        return spending;
    }

    void spending(Spending s) {
        spending = s;
    }

    /** @return the conversation, or null */
    ConversationContext conversation() {
        return conversation;
    }

    /** @return the effective policy */
    GuardPolicy policy() {
        return policy;
    }

    void policy(GuardPolicy p) {
        policy = p;
    }

    /** @return the host's table label */
    String table() {
        return table;
    }

    /** @return the host's category label */
    String category() {
        return category;
    }

    /** @return the catalog restricted to the policy; null until admitted */
    public SchemaCatalog catalog() {
        return catalog;
    }

    void catalog(SchemaCatalog c) {
        catalog = c;
    }

    /** @return the selector's completed choice, or null while the whole schema is shown */
    Map<String, Set<String>> selection() {
        return selection;
    }

    void selection(Map<String, Set<String>> s) {
        selection = s;
    }

    /** @return the schema the refiner sees, null until rendered */
    String schemaText() {
        return schemaText;
    }

    void schemaText(String s) {
        schemaText = s;
    }

    /** @return the decomposer's plan, empty when none */
    String plan() {
        return plan;
    }

    void plan(String p) {
        plan = p;
    }

    /** @return the candidates of the current round */
    public List<Candidate> candidates() {
        return candidates;
    }

    void candidates(List<Candidate> c) {
        candidates = List.copyOf(c);
    }

    /** @return the round: 0 before the correction, 1 after */
    public int round() {
        return round;
    }

    /**
     * Retry with the corrected SQL: the next round has one candidate, the corrected SQL.
     *
     * @param correctedSql the SQL the correction produced
     */
    void retryWith(String correctedSql) {
        candidates = List.of(new Candidate(0, correctedSql));
        round++;
    }

    /**
     * Records that the engine could not plan an accepted statement: its error stands for the statement's
     * execution, which never happens.
     *
     * @param accepted the guard's verdict
     * @param failure the engine's error as an execution failure
     */
    void unplanned(GuardVerdict.Accepted accepted, ExecutionOutcome.Failure failure) {
        unplanned.put(accepted, failure);
    }

    /**
     * @param accepted the guard's verdict
     * @return the engine's error for a statement it could not plan, or null when it planned it
     */
    ExecutionOutcome.Failure unplanned(GuardVerdict.Accepted accepted) {
        return unplanned.get(accepted);
    }

    /** @return the guard's verdicts on the current round */
    List<GuardVerdict> verdicts() {
        return verdicts;
    }

    void verdicts(List<GuardVerdict> v) {
        verdicts = List.copyOf(v);
    }

    /** @return the chosen result, null before choosing */
    public Ran chosen() {
        return chosen;
    }

    /** @return what the verifiers found in the chosen result when it was chosen */
    List<String> chosenFindings() {
        return chosenFindings;
    }

    void choose(Ran ran, List<String> findings) {
        chosen = ran;
        chosenFindings = List.copyOf(findings);
    }

    /** @return the answer a result-anomaly correction may leave standing, or null */
    AgentResult.Answered flagged() {
        return flagged;
    }

    void flag(AgentResult.Answered answer) {
        flagged = answer;
    }

    PendingFix pendingFix() {
        return pendingFix;
    }

    void pendingFix(PendingFix fix) {
        pendingFix = fix;
    }

    /** @return the outcome of the last step, null before the first */
    Outcome last() {
        return last;
    }

    void last(Outcome o) {
        last = o;
    }

    /** Verdicts the judge gave in this question, by round and candidate, so no result is judged twice. */
    Map<String, Optional<JudgeVerdict>> judged() {
        return judged;
    }

    /** @param event a trace event */
    void add(TraceEvent event) {
        events.add(event);
    }

    /** @return the events so far, read-only */
    List<TraceEvent> events() {
        return java.util.Collections.unmodifiableList(events);
    }

    /**
     * Adds a note to the trace.
     *
     * @param stage the stage it concerns
     * @param kind its kind
     * @param message the note, null read as empty
     */
    void note(Stage stage, String kind, String message) {
        events.add(new TraceEvent.Note(stage, kind, message == null ? "" : message));
    }

    /** @return the trace as it is now */
    Trace trace() {
        return new Trace(questionId, events);
    }

    /** @return the SQL the question was last working on, for a failure's record; null before any */
    String sqlUnderWay() {
        if (chosen != null) {
            return chosen.sql();
        }
        return candidates.isEmpty() ? null : candidates.get(0).sql();
    }
}
