package dev.sqlagent.internal;

import dev.sqlagent.AgentResult;
import dev.sqlagent.AgentRole;
import dev.sqlagent.FailureKind;
import dev.sqlagent.clean.SqlCleaner;
import dev.sqlagent.execution.ErrorCategory;
import dev.sqlagent.execution.ExecutionError;
import dev.sqlagent.execution.ExecutionOutcome;
import dev.sqlagent.execution.ResultTable;
import dev.sqlagent.guard.GuardPolicy;
import dev.sqlagent.guard.GuardVerdict;
import dev.sqlagent.llm.ChatMessage;
import dev.sqlagent.llm.LlmClient;
import dev.sqlagent.llm.LlmException;
import dev.sqlagent.llm.LlmRequest;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.llm.TokenUsage;
import dev.sqlagent.metrics.MetricTool;
import dev.sqlagent.schema.SchemaCatalog;
import dev.sqlagent.trace.CorrectionRecord;
import dev.sqlagent.trace.Stage;
import dev.sqlagent.trace.StageListener;
import dev.sqlagent.trace.StageTransition;
import dev.sqlagent.trace.Trace;
import dev.sqlagent.trace.TraceEvent;
import dev.sqlagent.verify.JudgeVerdict;
import dev.sqlagent.verify.ResultVerifier;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One question's run through the stages. It does the work of each stage (prompting, cleaning, guarding,
 * executing, verifying) and asks the {@link StateMachine} where to go next; it never decides on its own
 * whether to correct. Not thread-safe: one instance per question.
 */
public final class QuestionRun {

    private static final Logger LOG = LoggerFactory.getLogger(QuestionRun.class);
    private static final dev.sqlagent.choose.CandidateChooser CHOOSER = dev.sqlagent.choose.CandidateChooser.standard();

    private final AgentConfig config;
    private final ConversationContext conversation;
    private final GuardPolicy policy;
    private final String table;
    private final String category;
    /** The fix-cache key of the failure under correction and the fix the model gave, to cache once it runs. */
    private String pendingFixKey;
    private String pendingFixSql;
    private String question;
    private final String questionId;
    private final List<TraceEvent> events = new ArrayList<>();
    private final StateMachine machine;
    private final Prompts prompts;
    private String schemaDdl = "";
    private String lastSql;
    private SchemaCatalog catalog;
    /** The flagged answer a result-anomaly correction may leave standing. */
    private AgentResult.Answered flagged;
    /** The Selector's (completed) choice, null while the whole schema is shown. */
    private Map<String, java.util.Set<String>> selection;

    /**
     * @param config the agent's configuration
     * @param question the question
     * @param questionId a unique id for it
     * @param conversation the conversation it belongs to, or null
     * @param policy a policy for this request only, or null for the agent's
     * @param table the host's table label, or empty
     * @param category the host's category label, or empty
     */
    public QuestionRun(AgentConfig config, String question, String questionId, ConversationContext conversation,
            GuardPolicy policy, String table, String category) {
        this.config = config;
        this.table = table;
        this.category = category;
        this.policy = policy != null ? policy : config.policy();
        this.conversation = conversation;
        this.question = question;
        this.questionId = questionId;
        this.machine = new StateMachine(questionId, config.clock(), config.correctionEnabled(), this::onTransition);
        this.prompts = new Prompts(config.prompts(), config.dialect());
    }

    /** A failure of a model call, already recorded in the trace. */
    private static final class ModelFailure extends Exception {
        private static final long serialVersionUID = 1L;

        ModelFailure(String message) {
            super(message, null, false, false);
        }
    }

    /** A candidate SQL of one round. */
    private record Candidate(int index, String sql) {
    }

    /** @return the result, never null; only a misconfiguration could make it throw */
    public AgentResult run() {
        try {
            return runStages();
        } catch (RuntimeException e) {
            LOG.warn("question {} hit an internal fault in stage {}", questionId, machine.current(), e);
            note(machine.current(), "internal", e.getClass().getName() + ": " + e.getMessage());
            if (machine.current().canMoveTo(Stage.FAILED)) {
                machine.moveTo(Stage.FAILED, "internal fault");
            }
            return failed(FailureKind.INTERNAL, null, "internal fault: " + e);
        }
    }

    private AgentResult runStages() {
        if (question.isBlank() || question.length() > config.maxQuestionLength()) {
            String why = question.isBlank() ? "the question is blank"
                    : "the question has " + question.length() + " characters; at most " + config.maxQuestionLength()
                            + " are accepted";
            machine.moveTo(Stage.FAILED, "invalid question");
            return failed(FailureKind.INVALID_QUESTION, null, why);
        }
        if (conversation != null && !conversation.turns().isEmpty()) {
            rewrite();
        }
        if (!config.metricTools().isEmpty()) {
            Optional<AgentResult> answered = tryMetricTools();
            if (answered.isPresent()) {
                return answered.get();
            }
        }
        try {
            catalog = config.schema().get();
            if (policy != config.policy()) {
                catalog = narrowed(catalog, policy);
            }
        } catch (SQLException e) {
            machine.moveTo(Stage.FAILED, "schema unavailable");
            ErrorCategory category = dev.sqlagent.execution.ErrorClassifier.standard().classify(config.dialect(), e);
            return failed(FailureKind.ENVIRONMENT, category.environmental() ? category : ErrorCategory.CONNECTION,
                    "cannot read the schema: " + e.getMessage());
        }
        selectSchema();
        String plan = decompose();

        machine.moveTo(Stage.GENERATE, "write SQL");
        List<String> replies;
        try {
            replies = generate(prompts.generate(question, schemaDdl, plan, examples()), config.candidates());
        } catch (ModelFailure e) {
            machine.moveTo(Stage.FAILED, "model error");
            return failed(FailureKind.MODEL_ERROR, null, e.getMessage());
        }
        List<Candidate> candidates = new ArrayList<>();
        for (String reply : replies) {
            SqlCleaner.Cleaned cleaned = config.cleaner().clean(reply);
            if (cleaned.sql().isPresent()) {
                candidates.add(new Candidate(candidates.size(), cleaned.sql().get()));
            } else {
                note(Stage.GENERATE, "no_sql", cleaned.problem());
            }
        }
        if (candidates.isEmpty()) {
            machine.moveTo(Stage.FAILED, "no SQL in the reply");
            return failed(FailureKind.NO_SQL, null, "the model's reply held no SQL");
        }
        machine.moveTo(Stage.GUARD, "check " + candidates.size() + " candidate(s)");
        int round = 0;
        while (true) {
            List<GuardVerdict> verdicts = new ArrayList<>();
            for (Candidate c : candidates) {
                GuardVerdict v = config.guard().check(c.sql(), policy, config.dialect());
                events.add(new TraceEvent.GuardChecked(c.index(), round, v));
                verdicts.add(v);
            }
            lastSql = candidates.get(0).sql();
            Stage next = machine.afterGuard(verdicts, catalog::databaseHasTable);
            if (next == Stage.REJECTED) {
                GuardVerdict.Rejected r = firstRejection(verdicts, catalog);
                return new AgentResult.Rejected(question, r.sql(), r.violations(), trace());
            }
            if (next == Stage.FAILED || next == Stage.CORRECT) {
                NotRunnable why = notRunnable(verdicts, catalog);
                lastSql = why.sql();
                note(Stage.GUARD, "not_runnable", why.category() + ": " + why.message());
                if (next == Stage.FAILED) {
                    return failed(round > 0 ? FailureKind.STILL_FAILING : FailureKind.NOT_CORRECTED,
                            why.category(), why.message());
                }
                Optional<AgentResult> end = correct(why.sql(), why.category().name(), why.message());
                if (end.isPresent()) {
                    return end.get();
                }
                candidates = List.of(new Candidate(0, lastSql));
                round++;
                continue;
            }

            // EXECUTE: every accepted candidate, identical statements once
            Map<String, GuardVerdict.Accepted> distinct = new LinkedHashMap<>();
            for (GuardVerdict v : verdicts) {
                if (v instanceof GuardVerdict.Accepted) {
                    GuardVerdict.Accepted a = (GuardVerdict.Accepted) v;
                    distinct.putIfAbsent(a.statement().sql() + '\u0000' + a.statement().parameters(), a);
                }
            }
            List<String> keys = new ArrayList<>(distinct.keySet());
            List<ExecutionOutcome> outcomes = Parallel.map(config.parallel(), keys, k -> execute(distinct.get(k)));
            Map<String, ExecutionOutcome> byStatement = new LinkedHashMap<>();
            for (int i = 0; i < keys.size(); i++) {
                byStatement.put(keys.get(i), outcomes.get(i));
            }
            java.util.Set<String> recorded = new java.util.HashSet<>();
            List<Ran> successes = new ArrayList<>();
            Ran firstFailure = null;
            for (int i = 0; i < verdicts.size(); i++) {
                if (!(verdicts.get(i) instanceof GuardVerdict.Accepted)) {
                    continue;
                }
                GuardVerdict.Accepted a = (GuardVerdict.Accepted) verdicts.get(i);
                String key = a.statement().sql() + '\u0000' + a.statement().parameters();
                ExecutionOutcome outcome = byStatement.get(key);
                if (recorded.add(key)) {
                    events.add(new TraceEvent.Executed(candidates.get(i).index(), round, a.statement().sql(), outcome));
                }
                Ran ran = new Ran(candidates.get(i).index(), a.sql(), a.statement().sql(), outcome);
                if (outcome.succeeded()) {
                    successes.add(ran);
                } else if (firstFailure == null) {
                    firstFailure = ran;
                }
            }
            Ran decisive = successes.isEmpty() ? firstFailure : successes.get(0);
            lastSql = decisive.sql();
            next = machine.afterExecution(decisive.outcome());
            if (next == Stage.FAILED) {
                ExecutionError err = ((ExecutionOutcome.Failure) decisive.outcome()).error();
                FailureKind kind = err.category().environmental() ? FailureKind.ENVIRONMENT
                        : round > 0 ? FailureKind.STILL_FAILING : FailureKind.NOT_CORRECTED;
                return failed(kind, err.category(), err.message());
            }
            if (next == Stage.CORRECT) {
                ExecutionError err = ((ExecutionOutcome.Failure) decisive.outcome()).error();
                Optional<AgentResult> end = correct(decisive.sql(), err.category().name(), err.message());
                if (end.isPresent()) {
                    return end.get();
                }
                candidates = List.of(new Candidate(0, lastSql));
                round++;
                continue;
            }

            if (pendingFixKey != null && config.fixCache() != null) {
                for (Ran ran : successes) {
                    if (ran.sql().equals(pendingFixSql)) {
                        config.fixCache().put(pendingFixKey, pendingFixSql);
                    }
                }
                pendingFixKey = null;
            }

            // CHOOSE, VERIFY
            Choice choice = choose(successes, round);
            Ran chosen = choice.chosen();
            lastSql = chosen.sql();
            ResultTable table = ((ExecutionOutcome.Success) chosen.outcome()).table();
            machine.chosen();
            List<String> findings = choice.findings();
            for (String f : findings) {
                note(Stage.VERIFY, "verifier", f);
            }
            if (findings.isEmpty() && config.judgeEnabled()) {
                Optional<JudgeVerdict> verdict = judge(chosen, round);
                if (verdict.isPresent() && !verdict.get().correct()) {
                    findings = List.of(verdict.get().feedback());
                }
            }
            next = machine.afterVerification(findings, config.correctAnomalies());
            if (next == Stage.ANSWERED) {
                return new AgentResult.Answered(question, chosen.sql(), chosen.executedSql(), table, trace());
            }
            flagged = new AgentResult.Answered(question, chosen.sql(), chosen.executedSql(), table, trace());
            Optional<AgentResult> end = correct(chosen.sql(), "RESULT_ANOMALY", String.join("; ", findings));
            if (end.isPresent()) {
                return end.get();
            }
            candidates = List.of(new Candidate(0, lastSql));
            round++;
        }
    }

    /**
     * REWRITE: a follow-up becomes a self-contained question. A failed rewrite keeps the question as
     * asked; it is noted, never fatal.
     */
    private void rewrite() {
        machine.moveTo(Stage.REWRITE, "follow-up in a conversation");
        try {
            String reply = callModel(AgentRole.REWRITER, Stage.REWRITE,
                    prompts.rewrite(conversation.historyText(), question), false, 1).get(0).strip();
            String firstLine = reply.lines().filter(l -> !l.isBlank()).findFirst().orElse("").strip();
            if (firstLine.isEmpty() || firstLine.length() > config.maxQuestionLength()) {
                note(Stage.REWRITE, "rewrite", "the rewrite was empty or too long; the question is kept as asked");
            } else {
                note(Stage.REWRITE, "rewrite", "\"" + question + "\" -> \"" + firstLine + "\"");
                question = firstLine;
            }
        } catch (ModelFailure e) {
            note(Stage.REWRITE, "rewrite", "the rewrite failed (" + e.getMessage() + "); the question is kept as asked");
        }
    }

    /**
     * METRIC_TOOL: the router may pick a vetted template; it runs with bound parameters after passing the
     * guard. Anything short of an answer falls back to text-to-SQL, once, noted in the trace.
     */
    private Optional<AgentResult> tryMetricTools() {
        List<MetricTool> tools = config.metricTools();
        machine.moveTo(Stage.METRIC_TOOL, tools.size() + " metric(s) registered");
        StringBuilder described = new StringBuilder();
        for (MetricTool t : tools) {
            described.append(t.describe()).append('\n');
        }
        String fallback;
        try {
            String reply = callModel(AgentRole.ROUTER, Stage.METRIC_TOOL, prompts.route(described.toString(), question),
                    true, 1).get(0);
            Optional<Map<String, Object>> o = LenientJson.firstObject(reply);
            String name = o.map(m -> LenientJson.text(m.get("metric")).trim()).orElse("");
            MetricTool tool = null;
            for (MetricTool t : tools) {
                if (t.name().equalsIgnoreCase(name)) {
                    tool = t;
                }
            }
            if (tool == null) {
                fallback = name.isEmpty() || name.equalsIgnoreCase("null") || name.equalsIgnoreCase("none")
                        ? "no metric fits the question" : "the router named an unknown metric '" + name + "'";
            } else {
                Map<String, String> args = new java.util.HashMap<>();
                Object a = o.get().get("arguments");
                if (a instanceof Map) {
                    ((Map<?, ?>) a).forEach((k, v) -> args.put(String.valueOf(k), LenientJson.text(v)));
                }
                Optional<List<Object>> values = tool.bind(args);
                if (values.isEmpty()) {
                    fallback = "metric " + tool.name() + ": arguments missing or of the wrong type " + args;
                } else {
                    GuardVerdict v = config.guard().check(tool.checkedSql(), policy, config.dialect());
                    events.add(new TraceEvent.GuardChecked(0, 0, v));
                    if (!(v instanceof GuardVerdict.Accepted)) {
                        fallback = "metric " + tool.name() + " was refused by the guard";
                    } else if (!((GuardVerdict.Accepted) v).statement().parameters().isEmpty()) {
                        fallback = "metric " + tool.name() + ": the policy adds row filters to its tables; write them"
                                + " into the template";
                    } else {
                        ExecutionOutcome outcome = config.executor().execute(
                                new dev.sqlagent.execution.SqlStatement(tool.jdbcSql(), values.get()));
                        if (outcome == null) {
                            throw new IllegalStateException("SqlExecutor " + config.executor().getClass().getName()
                                    + " returned null");
                        }
                        events.add(new TraceEvent.Executed(0, 0, tool.jdbcSql(), outcome));
                        if (outcome instanceof ExecutionOutcome.Success) {
                            note(Stage.METRIC_TOOL, "path", "answered by metric " + tool.name() + " with " + args);
                            lastSql = tool.sql();
                            machine.moveTo(Stage.ANSWERED, "metric " + tool.name());
                            return Optional.of(new AgentResult.Answered(question, tool.sql(), tool.jdbcSql(),
                                    ((ExecutionOutcome.Success) outcome).table(), trace()));
                        }
                        fallback = "metric " + tool.name() + " failed: "
                                + ((ExecutionOutcome.Failure) outcome).error().message();
                    }
                }
            }
        } catch (ModelFailure e) {
            fallback = "the router could not be asked: " + e.getMessage();
        }
        note(Stage.METRIC_TOOL, "path", "text-to-SQL (" + fallback + ")");
        return Optional.empty();
    }

    /**
     * SELECT_SCHEMA: skipped when the whole schema fits the refiner's budget (unless forced); otherwise
     * the selector prunes it and the choice is completed deterministically. A conversation reuses its
     * selection. When unsure (no readable reply, a failed call), the whole schema is kept.
     */
    private void selectSchema() {
        int refinerBudget = config.budgets().refinerInput();
        SchemaText whole = SchemaText.render(catalog, null, Integer.MAX_VALUE);
        boolean run = config.selectorMode() == dev.sqlagent.StageMode.ALWAYS
                || (config.selectorMode() == dev.sqlagent.StageMode.AUTO && whole.estimatedTokens() > refinerBudget);
        if (run) {
            machine.moveTo(Stage.SELECT_SCHEMA, "schema of ~" + whole.estimatedTokens() + " tokens, budget "
                    + refinerBudget);
            Map<String, java.util.Set<String>> cached = conversation == null ? null
                    : config.selections().getIfPresent(conversation.id());
            if (cached != null) {
                selection = cached;
                note(Stage.SELECT_SCHEMA, "selection", "reused the conversation's selection " + cached.keySet());
            } else {
                selection = askSelector("");
                if (selection != null && conversation != null) {
                    config.selections().put(conversation.id(), selection);
                }
            }
        }
        SchemaText shown = SchemaText.render(catalog, selection, refinerBudget);
        if (!shown.omitted().isEmpty()) {
            note(machine.current(), "budget", "the refiner's schema was cut to fit " + refinerBudget + " tokens: "
                    + shown.omitted());
        }
        schemaDdl = shown.text();
    }

    /** Asks the selector; returns the completed selection, or null to keep the whole schema. */
    private Map<String, java.util.Set<String>> askSelector(String extra) {
        SchemaText input = SchemaText.render(catalog, null, config.budgets().selectorInput());
        if (!input.omitted().isEmpty()) {
            note(machine.current(), "budget", "the selector's schema was cut to fit "
                    + config.budgets().selectorInput() + " tokens: " + input.omitted());
        }
        try {
            String reply = callModel(AgentRole.SELECTOR, machine.current(),
                    prompts.select(question + extra, input.text()), true, 1).get(0);
            Optional<Selection> parsed = Selection.parse(reply, catalog);
            if (parsed.isEmpty()) {
                note(machine.current(), "selection", "the selector's reply named no known table; the whole schema is kept");
                return null;
            }
            if (!parsed.get().unknown().isEmpty()) {
                note(machine.current(), "selection", "dropped unknown names " + parsed.get().unknown());
            }
            Map<String, java.util.Set<String>> completed = SchemaSelections.complete(catalog, question,
                    parsed.get().columns(), notes -> note(machine.current(), "selection", notes));
            return completed;
        } catch (ModelFailure e) {
            note(machine.current(), "selection", "the selector failed (" + e.getMessage() + "); the whole schema is kept");
            return null;
        }
    }

    /**
     * MAC-SQL's fall-back inside the single correction: an unknown table or column while the schema was
     * pruned re-runs selection with the error, and the correction sees the widened schema.
     */
    private void widenSelection(String feedback) {
        Map<String, java.util.Set<String>> again = askSelector("\n(An earlier SQL failed: " + feedback
                + ". Keep every table that could fix it.)");
        Map<String, java.util.Set<String>> widened = null;
        if (again != null) {
            Map<String, java.util.Set<String>> merged = new java.util.LinkedHashMap<>(selection);
            again.forEach((t, cs) -> merged.merge(t, cs, (x, y) -> {
                if (x.isEmpty() || y.isEmpty()) {
                    return java.util.Set.of();
                }
                java.util.Set<String> u = new java.util.LinkedHashSet<>(x);
                u.addAll(y);
                return u;
            }));
            widened = merged;
        }
        note(Stage.CORRECT, "selection", widened == null ? "selection dropped: the correction sees the whole schema"
                : "selection widened to " + widened.keySet());
        selection = widened;
        SchemaText shown = SchemaText.render(catalog, selection, config.budgets().refinerInput());
        schemaDdl = shown.text();
        if (conversation != null && selection != null) {
            config.selections().put(conversation.id(), selection);
        }
    }

    /**
     * DECOMPOSE: for complex questions (or always / never, as configured) the decomposer writes steps; a
     * plan that is not executable is dropped and generation goes on without it. It never loops.
     */
    private String decompose() {
        int tables = selection != null ? selection.size() : Complexity.tablesNamed(question, catalog);
        boolean run = config.decomposerMode() == dev.sqlagent.StageMode.ALWAYS
                || (config.decomposerMode() == dev.sqlagent.StageMode.AUTO && Complexity.isComplex(question, tables));
        if (!run) {
            return "";
        }
        machine.moveTo(Stage.DECOMPOSE, "complex question");
        SchemaText input = SchemaText.render(catalog, selection, config.budgets().decomposerInput());
        if (!input.omitted().isEmpty()) {
            note(Stage.DECOMPOSE, "budget", "the decomposer's schema was cut to fit "
                    + config.budgets().decomposerInput() + " tokens: " + input.omitted());
        }
        try {
            String reply = callModel(AgentRole.DECOMPOSER, Stage.DECOMPOSE,
                    prompts.decompose(question, input.text(), Plan.MAX_STEPS), true, 1).get(0);
            Optional<Plan> plan = Plan.parse(reply);
            if (plan.isEmpty()) {
                note(Stage.DECOMPOSE, "plan", "no readable plan; generating without one");
                return "";
            }
            SchemaCatalog shown = selection == null ? catalog : SchemaText.restrict(catalog, selection);
            List<String> problems = plan.get().problems(shown);
            if (!problems.isEmpty()) {
                note(Stage.DECOMPOSE, "plan", "plan dropped, not executable: " + problems);
                return "";
            }
            note(Stage.DECOMPOSE, "plan", plan.get().steps().size() + " step(s) accepted");
            return plan.get().render();
        } catch (ModelFailure e) {
            note(Stage.DECOMPOSE, "plan", "the decomposer failed (" + e.getMessage() + "); generating without a plan");
            return "";
        }
    }

    /** A candidate that ran. */
    private record Ran(int candidate, String sql, String executedSql, ExecutionOutcome outcome) {
    }

    /** The chosen candidate and what the verifiers found in its result. */
    private record Choice(Ran chosen, List<String> findings) {
    }

    /**
     * CHOOSE: {@link dev.sqlagent.choose.CandidateChooser} scores the groups of equal results (vote, near
     * agreement, fit to the question, schema links, verifier findings); with a judge, the finalist groups
     * go to it side by side and its pick wins. The scores are noted in the trace.
     */
    private Choice choose(List<Ran> successes, int round) {
        List<dev.sqlagent.choose.ChoiceCandidate> in = new ArrayList<>();
        Map<Integer, Ran> byIndex = new java.util.HashMap<>();
        for (Ran r : successes) {
            in.add(new dev.sqlagent.choose.ChoiceCandidate(r.candidate(), r.sql(),
                    ((ExecutionOutcome.Success) r.outcome()).table(), verify(r), List.of()));
            byIndex.put(r.candidate(), r);
        }
        dev.sqlagent.choose.CandidateChooser.Choice c = CHOOSER.choose(question, catalog, in);
        int pick = c.chosen();
        String rule = c.ruleWithSignal();
        List<dev.sqlagent.choose.CandidateChooser.GroupScore> finalists = dev.sqlagent.choose.FinalistJudge.finalists(c);
        if (config.judgeEnabled() && finalists.size() > 1) {
            OptionalInt judged = judgeFinalists(finalists, byIndex, round);
            if (judged.isPresent()) {
                pick = finalists.get(judged.getAsInt()).preferred();
                rule = "judge";
            }
        }
        note(Stage.CHOOSE, "choice", c.explain());
        events.add(new TraceEvent.Chosen(pick, round, c.groupSizes(), rule));
        Ran chosen = byIndex.get(pick);
        return new Choice(chosen, verify(chosen));
    }

    /** Asks the judge to pick among the finalists; its verdict on the pick is kept for verification. */
    private OptionalInt judgeFinalists(List<dev.sqlagent.choose.CandidateChooser.GroupScore> finalists,
            Map<Integer, Ran> byIndex, int round) {
        List<dev.sqlagent.choose.FinalistJudge.Finalist> shown = new ArrayList<>();
        for (dev.sqlagent.choose.CandidateChooser.GroupScore g : finalists) {
            Ran r = byIndex.get(g.preferred());
            shown.add(new dev.sqlagent.choose.FinalistJudge.Finalist(r.sql(), ((ExecutionOutcome.Success) r.outcome()).table()));
        }
        try {
            String reply = callModel(AgentRole.JUDGE, machine.current(), prompts.judgeChoice(question,
                    dev.sqlagent.choose.FinalistJudge.render(shown), schemaDdl), true, 1).get(0);
            OptionalInt pick = dev.sqlagent.choose.FinalistJudge.parseChoice(reply, shown.size());
            if (pick.isEmpty()) {
                note(Stage.CHOOSE, "judge", "the judge's reply named none of the " + shown.size() + " finalists");
                return pick;
            }
            Ran ran = byIndex.get(finalists.get(pick.getAsInt()).preferred());
            Optional<JudgeVerdict> verdict = JudgeReply.parse(reply);
            verdict.ifPresent(v -> events.add(new TraceEvent.Judged(ran.candidate(), round, v)));
            verdicts.put(round + ":" + ran.candidate(), verdict);
            return pick;
        } catch (ModelFailure e) {
            note(Stage.CHOOSE, "judge", "the judge could not be asked: " + e.getMessage());
            return OptionalInt.empty();
        }
    }

    /** Whether a SQL has an ORDER BY outside parentheses and quotes. */
    static boolean ordersAtTopLevel(String sql) {
        int depth = 0;
        char quote = 0;
        String lower = sql.toLowerCase(java.util.Locale.ROOT);
        for (int i = 0; i < lower.length(); i++) {
            char c = lower.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"' || c == '`') {
                quote = c;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (depth == 0 && c == 'o' && lower.startsWith("order", i) && (i == 0
                    || !Character.isLetterOrDigit(lower.charAt(i - 1)))) {
                int j = i + 5;
                while (j < lower.length() && Character.isWhitespace(lower.charAt(j))) {
                    j++;
                }
                if (j > i + 5 && lower.startsWith("by", j)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Verdicts already given in this question, by candidate and round, so no result is judged twice. */
    private final Map<String, Optional<JudgeVerdict>> verdicts = new java.util.HashMap<>();

    /**
     * Asks the judge about one result. A failing judge call is noted and counts as no verdict: the judge
     * is advice, not a gate.
     */
    private Optional<JudgeVerdict> judge(Ran ran, int round) {
        String key = round + ":" + ran.candidate();
        Optional<JudgeVerdict> known = verdicts.get(key);
        if (known != null) {
            return known;
        }
        ResultTable table = ((ExecutionOutcome.Success) ran.outcome()).table();
        Optional<JudgeVerdict> verdict;
        try {
            List<String> replies = callModel(AgentRole.JUDGE, machine.current(),
                    prompts.judge(question, ran.sql(), JudgeReply.summary(table), schemaDdl), true, 1);
            verdict = JudgeReply.parse(replies.get(0));
            if (verdict.isEmpty()) {
                note(Stage.VERIFY, "judge", "the judge's reply held no readable verdict");
            }
        } catch (ModelFailure e) {
            note(Stage.VERIFY, "judge", "the judge could not be asked: " + e.getMessage());
            verdict = Optional.empty();
        }
        verdict.ifPresent(v -> events.add(new TraceEvent.Judged(ran.candidate(), round, v)));
        verdicts.put(key, verdict);
        return verdict;
    }

    private List<String> verify(Ran ran) {
        ResultTable table = ((ExecutionOutcome.Success) ran.outcome()).table();
        List<String> findings = new ArrayList<>();
        for (ResultVerifier v : config.verifiers()) {
            Optional<String> f = v.check(question, ran.sql(), table);
            if (f == null) {
                throw new IllegalStateException("ResultVerifier " + v.getClass().getName() + " returned null");
            }
            f.ifPresent(findings::add);
        }
        return findings;
    }

    /**
     * Asks the refiner for {@code n} candidates: one request with {@code n}, then further requests for
     * what a client that ignores {@code n} did not return, at most {@code n} requests in all.
     */
    private List<String> generate(List<ChatMessage> prompt, int n) throws ModelFailure {
        List<String> texts = new ArrayList<>(callModel(AgentRole.REFINER, Stage.GENERATE, prompt, false, n));
        int missing = n - texts.size();
        if (missing > 0) {
            // a client that ignores n: the rest as single-choice requests, in parallel within the bound
            List<TraceEvent.ModelCall> calls = Parallel.map(config.parallel(), java.util.Collections.nCopies(missing, 1),
                    one -> ask(AgentRole.REFINER, Stage.GENERATE, prompt, false, one));
            for (TraceEvent.ModelCall call : calls) {
                events.add(call);
                if (call.error().isEmpty()) {
                    texts.addAll(call.replies());
                }
            }
        }
        return texts.size() > n ? texts.subList(0, n) : texts;
    }

    /**
     * The single correction, entered by the state machine. Sets {@link #lastSql} to the corrected SQL
     * when the run goes on to the guard.
     *
     * @return the end of the question when the correction itself ends it
     */
    private Optional<AgentResult> correct(String originalSql, String category, String feedback) {
        if (selection != null && (category.equals(ErrorCategory.TABLE_NOT_FOUND.name())
                || category.equals(ErrorCategory.COLUMN_NOT_FOUND.name()))) {
            widenSelection(feedback);
        }
        boolean errorFix = categoryOf(category) != null;
        String fixKey = errorFix && config.fixCache() != null ? FixCache.key(originalSql, category, feedback) : null;
        if (fixKey != null) {
            Optional<String> known = config.fixCache().lookup(fixKey);
            if (known.isPresent()) {
                note(Stage.CORRECT, "fix_cache", "reused a verified fix for the same failure; no model call");
                events.add(new TraceEvent.Corrected(new CorrectionRecord(originalSql, feedback, category, known.get(),
                        "reused a verified fix from the cache")));
                Stage next = machine.afterCorrection(known.get(), originalSql);
                if (next == Stage.GUARD) {
                    lastSql = known.get();
                    return Optional.empty();
                }
                return Optional.of(failed(FailureKind.CORRECTION_UNCHANGED, categoryOf(category),
                        "the cached fix is the same SQL; the original error was: " + feedback));
            }
        }
        List<String> replies;
        try {
            replies = callModel(AgentRole.REFINER, Stage.CORRECT,
                    prompts.correct(question, schemaDdl, originalSql, category,
                            FailingFragment.locate(feedback, originalSql)
                                    .map(f -> feedback + "\nThe failing fragment: " + f).orElse(feedback),
                            repairs(category)), true, 1);
        } catch (ModelFailure e) {
            events.add(new TraceEvent.Corrected(new CorrectionRecord(originalSql, feedback, category, "", "")));
            if (machine.correctingAnomaly()) {
                machine.moveTo(Stage.ANSWERED, "model error during the anomaly's correction; the flagged answer stands");
                return Optional.of(standing());
            }
            machine.moveTo(Stage.FAILED, "model error during correction");
            return Optional.of(failed(FailureKind.MODEL_ERROR, categoryOf(category), e.getMessage()));
        }
        String reply = replies.get(0);
        String reason = "";
        String candidateText = reply;
        Optional<Map<String, String>> json = ReplyJson.firstObject(reply);
        if (json.isPresent() && json.get().containsKey("sql")) {
            candidateText = json.get().get("sql");
            reason = json.get().getOrDefault("reason", "");
        }
        SqlCleaner.Cleaned cleaned = config.cleaner().clean(candidateText);
        String corrected = cleaned.sql().orElse(null);
        events.add(new TraceEvent.Corrected(new CorrectionRecord(originalSql, feedback, category,
                corrected == null ? "" : corrected, reason)));
        Stage next = machine.afterCorrection(corrected, originalSql);
        if (next == Stage.ANSWERED) {
            return Optional.of(standing());
        }
        if (next == Stage.FAILED) {
            if (corrected == null) {
                note(Stage.CORRECT, "no_sql", cleaned.problem());
                return Optional.of(failed(FailureKind.NO_SQL, categoryOf(category),
                        "the correction held no SQL; the original error was: " + feedback));
            }
            return Optional.of(failed(FailureKind.CORRECTION_UNCHANGED, categoryOf(category),
                    "the correction returned the same SQL; the original error was: " + feedback));
        }
        lastSql = corrected;
        if (fixKey != null) {
            pendingFixKey = fixKey;
            pendingFixSql = corrected;
        }
        return Optional.empty();
    }

    /** Few-shot examples from the case library, within a share of the refiner's budget; noted in the trace. */
    private String examples() {
        if (config.caseLibrary() == null) {
            return "";
        }
        List<dev.sqlagent.cases.CaseLibrary.Example> found = config.caseLibrary().examplesFor(question, table, category,
                policy);
        if (found.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        List<String> used = new ArrayList<>();
        int budget = Math.max(200, config.budgets().refinerInput() / 4);
        for (dev.sqlagent.cases.CaseLibrary.Example e : found) {
            String block = "Q: " + e.question() + "\nSQL: " + e.sql() + "\n";
            if (dev.sqlagent.schema.TokenEstimator.heuristic().estimate(sb + block) > budget) {
                break;
            }
            sb.append(block);
            used.add(e.id() + String.format(java.util.Locale.ROOT, " (%.2f)", e.score()));
        }
        if (!used.isEmpty()) {
            note(Stage.GENERATE, "retrieval", used.size() + " example(s): " + used);
        }
        return sb.toString();
    }

    /** Past repairs of the same kind, for the correction prompt; noted in the trace. */
    private String repairs(String category) {
        if (config.caseLibrary() == null) {
            return "";
        }
        List<String> tags = new ArrayList<>();
        for (TraceEvent e : events) {
            if (e instanceof TraceEvent.Judged) {
                ((TraceEvent.Judged) e).verdict().errorTags().forEach(t -> tags.add(t.name()));
            }
        }
        List<dev.sqlagent.cases.CaseLibrary.Repair> found = config.caseLibrary().repairsFor(question, category, tags,
                policy);
        if (found.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("Similar failures fixed before:\n");
        List<String> used = new ArrayList<>();
        for (dev.sqlagent.cases.CaseLibrary.Repair r : found) {
            sb.append("wrong: ").append(r.wrongSql()).append("\nfixed: ").append(r.fixedSql()).append("\nwhy: ")
                    .append(r.comment()).append('\n');
            used.add(r.id());
        }
        note(Stage.CORRECT, "retrieval", used.size() + " repair(s): " + used);
        return sb.toString();
    }

    /** The catalog restricted to what a per-request policy allows. */
    private static SchemaCatalog narrowed(SchemaCatalog catalog, GuardPolicy policy) {
        List<SchemaCatalog.Table> kept = new ArrayList<>();
        java.util.Set<String> all = new java.util.HashSet<>();
        for (SchemaCatalog.Table t : catalog.tables()) {
            all.add(t.name());
            if (policy.allowsTable(t.name())) {
                kept.add(t);
            }
        }
        return SchemaCatalog.of(kept, all).enrich(catalog.enrichment());
    }

    /** The flagged answer, with the trace as it is now. */
    private AgentResult.Answered standing() {
        lastSql = flagged.sqlText();
        return new AgentResult.Answered(flagged.question(), flagged.sqlText(), flagged.executedSql(), flagged.table(),
                trace());
    }

    private ExecutionOutcome execute(GuardVerdict.Accepted accepted) {
        ExecutionOutcome outcome = config.executor().execute(accepted.statement());
        if (outcome == null) {
            throw new IllegalStateException("SqlExecutor " + config.executor().getClass().getName() + " returned null");
        }
        return outcome;
    }

    private List<String> callModel(AgentRole role, Stage stage, List<ChatMessage> prompt, boolean json, int n)
            throws ModelFailure {
        TraceEvent.ModelCall call = ask(role, stage, prompt, json, n);
        events.add(call);
        if (!call.error().isEmpty()) {
            throw new ModelFailure(call.error());
        }
        return call.replies();
    }

    /** One model call, recorded as an event but not added to the trace; safe to run on another thread. */
    private TraceEvent.ModelCall ask(AgentRole role, Stage stage, List<ChatMessage> prompt, boolean json, int n) {
        LlmClient client = config.model(role);
        LlmRequest request = LlmRequest.builder().role(role.id()).messages(prompt)
                .temperature(config.temperatureOf(role)).jsonResponse(json).n(n).build();
        long start = config.clock().millis();
        LlmResponse response;
        String error = "";
        try {
            response = client.chat(request);
            if (response == null) {
                error = "LlmClient " + client.getClass().getName() + " returned null";
            } else if (response.texts().isEmpty()) {
                error = "LlmClient " + client.getClass().getName() + " returned no text";
            }
        } catch (LlmException e) {
            response = null;
            error = "model call failed (" + e.kind() + "): " + e.getMessage();
        } catch (RuntimeException e) {
            response = null;
            error = "LlmClient " + client.getClass().getName() + " threw " + e;
        }
        Duration elapsed = Duration.ofMillis(config.clock().millis() - start);
        List<String> texts = response == null ? List.of() : response.texts();
        TokenUsage usage = response == null ? TokenUsage.NONE : response.usage();
        return new TraceEvent.ModelCall(stage, role.id(), response == null ? "" : response.model(), prompt, texts,
                usage, elapsed, error);
    }

    private void onTransition(StageTransition t) {
        events.add(new TraceEvent.StageEntered(t));
        LOG.debug("question {}: {} -> {} ({})", t.questionId(), t.from(), t.to(), t.reason());
        for (StageListener l : config.listeners()) {
            try {
                l.onTransition(t);
            } catch (RuntimeException e) {
                LOG.warn("stage listener {} threw; ignored", l.getClass().getName(), e);
            }
        }
    }

    private void note(Stage stage, String kind, String message) {
        events.add(new TraceEvent.Note(stage, kind, message == null ? "" : message));
    }

    private AgentResult.Failed failed(FailureKind kind, ErrorCategory category, String message) {
        return new AgentResult.Failed(question, kind, Optional.ofNullable(category), message,
                Optional.ofNullable(lastSql), trace());
    }

    private Trace trace() {
        return new Trace(questionId, events);
    }

    private static ErrorCategory categoryOf(String name) {
        try {
            return ErrorCategory.valueOf(name);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Why the candidates of a round cannot run although none broke the policy. */
    private record NotRunnable(String sql, ErrorCategory category, String message) {
    }

    private static NotRunnable notRunnable(List<GuardVerdict> verdicts, SchemaCatalog catalog) {
        for (GuardVerdict v : verdicts) {
            if (v instanceof GuardVerdict.Unparseable) {
                return new NotRunnable(v.sql(), ErrorCategory.SYNTAX_ERROR,
                        "the SQL does not parse: " + ((GuardVerdict.Unparseable) v).message());
            }
        }
        for (GuardVerdict v : verdicts) {
            if (v instanceof GuardVerdict.Rejected) {
                List<String> invented = StateMachine.inventedTables((GuardVerdict.Rejected) v, catalog::databaseHasTable);
                return new NotRunnable(v.sql(), ErrorCategory.TABLE_NOT_FOUND,
                        (invented.size() == 1 ? "table does not exist: " : "tables do not exist: ")
                                + String.join(", ", invented));
            }
        }
        throw new IllegalStateException("no unrunnable verdict among " + verdicts.size());
    }

    private static GuardVerdict.Rejected firstRejection(List<GuardVerdict> verdicts, SchemaCatalog catalog) {
        for (GuardVerdict v : verdicts) {
            if (v instanceof GuardVerdict.Rejected
                    && StateMachine.inventedTables((GuardVerdict.Rejected) v, catalog::databaseHasTable).isEmpty()) {
                return (GuardVerdict.Rejected) v;
            }
        }
        throw new IllegalStateException("no policy violation among " + verdicts.size() + " verdicts");
    }
}
