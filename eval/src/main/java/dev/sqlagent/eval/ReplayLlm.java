package dev.sqlagent.eval;

import dev.sqlagent.llm.ChatMessage;
import dev.sqlagent.llm.LlmClient;
import dev.sqlagent.llm.LlmException;
import dev.sqlagent.llm.LlmRequest;
import dev.sqlagent.llm.LlmResponse;
import dev.sqlagent.llm.TokenUsage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A scripted model that replays recorded predictions: asked to write SQL for a question, it answers with
 * that question's SQL from each prediction file, one text per file in file order ({@code min(n, files)}
 * texts for a request of {@code n}). It serves one database: the agent of that database gets its own
 * replay, so questions are keyed by database id and question text together.
 *
 * <p>The question is found in the last user message, which starts with {@code Question: <question>}
 * followed by a newline (whitespace is compared collapsed). A question it does not know is an
 * {@link LlmException}; a file without a prediction for it gives an empty text (which the agent records
 * as a reply without SQL).
 *
 * <p><b>Corrections.</b> There is no model to take the feedback in. Without correction files, a
 * correction request (its prompt holds {@value #CORRECTION_MARKER}) is answered with the very SQL that
 * failed, as a model ignoring the feedback would, and the state machine stops the question as
 * {@code CORRECTION_UNCHANGED}. With correction files, it is answered with the first of their SQL for
 * that question that differs from the failed SQL: another model's answer standing in for a corrected
 * one (used to exercise the fix cache and repair retrieval, not to measure correction quality).
 *
 * <p>Token usage is an estimate (a quarter of the characters of prompt and reply), since nothing was
 * really tokenised; it shows the size of the prompts, not a bill. Thread-safe and immutable.
 */
public final class ReplayLlm implements LlmClient {

    /** The text by which a correction request is recognised. */
    public static final String CORRECTION_MARKER = "This SQL did not answer it:";
    private static final String QUESTION_PREFIX = "Question: ";

    private final String dbId;
    private final Map<String, List<String>> sqlByQuestion;
    private final int files;
    private final Map<String, List<String>> correctionsByQuestion;

    private ReplayLlm(String dbId, Map<String, List<String>> sqlByQuestion, int files,
            Map<String, List<String>> correctionsByQuestion) {
        this.dbId = dbId;
        this.sqlByQuestion = sqlByQuestion;
        this.files = files;
        this.correctionsByQuestion = correctionsByQuestion;
    }

    /**
     * A replay whose corrections come from other prediction files.
     *
     * @param dbId the database this replay serves
     * @param questions the question set
     * @param predictions the prediction files answering generation
     * @param corrections the prediction files answering corrections, in order of preference
     * @return the replay
     * @throws IllegalArgumentException as {@link #create(String, List, List)}
     */
    public static ReplayLlm create(String dbId, List<EvalQuestion> questions, List<PredictionFile> predictions,
            List<PredictionFile> corrections) {
        ReplayLlm base = create(dbId, questions, predictions);
        if (corrections.isEmpty()) {
            return base;
        }
        ReplayLlm fixes = create(dbId, questions, corrections);
        return new ReplayLlm(dbId, base.sqlByQuestion, base.files, fixes.sqlByQuestion);
    }

    /**
     * Creates a replay of the predictions for one database, without correction files.
     *
     * @param dbId the database this replay serves
     * @param questions the question set (questions of other databases are ignored)
     * @param predictions the prediction files, in the order their candidates are returned
     * @return the replay
     * @throws IllegalArgumentException if no file is given; if a prediction names another database than
     *     its question; or if two questions of the database have the same text but different predictions
     */
    public static ReplayLlm create(String dbId, List<EvalQuestion> questions, List<PredictionFile> predictions) {
        Objects.requireNonNull(dbId, "dbId");
        Objects.requireNonNull(questions, "questions");
        Objects.requireNonNull(predictions, "predictions");
        if (predictions.isEmpty()) {
            throw new IllegalArgumentException("a replay needs at least one prediction file");
        }
        Map<String, List<String>> byQuestion = new HashMap<>();
        Map<String, String> idOf = new HashMap<>();
        for (EvalQuestion q : questions) {
            if (!q.dbId().equals(dbId)) {
                continue;
            }
            List<String> sqls = new ArrayList<>();
            for (PredictionFile f : predictions) {
                PredictionFile.Prediction p = f.get(q.id()).orElse(null);
                if (p != null && !p.dbId().isEmpty() && !p.dbId().equals(q.dbId())) {
                    throw new IllegalArgumentException("prediction file " + f.name() + ", id " + q.id()
                            + ": names database " + p.dbId() + " but the question is about " + q.dbId());
                }
                sqls.add(p == null ? "" : p.sql());
            }
            String key = normalise(q.question());
            List<String> before = byQuestion.putIfAbsent(key, List.copyOf(sqls));
            if (before != null && !before.equals(sqls)) {
                throw new IllegalArgumentException("questions " + idOf.get(key) + " and " + q.id() + " of database "
                        + dbId + " have the same text but different predictions; a replay cannot tell them apart");
            }
            idOf.putIfAbsent(key, q.id());
        }
        return new ReplayLlm(dbId, Map.copyOf(byQuestion), predictions.size(), Map.of());
    }

    @Override
    public LlmResponse chat(LlmRequest request) {
        Objects.requireNonNull(request, "request");
        String user = lastUserMessage(request);
        if (user.contains(CORRECTION_MARKER)) {
            return respond(request, List.of(correction(user)));
        }
        List<String> sqls = lookup(user);
        if (sqls == null) {
            throw new LlmException(LlmException.Kind.OTHER, "ReplayLlm for database " + dbId
                    + " has no prediction for the question in: " + abbreviate(user));
        }
        int n = Math.min(request.n(), files);
        return respond(request, sqls.subList(0, n));
    }

    /** {@return how many prediction files are replayed} */
    public int files() {
        return files;
    }

    private static String lastUserMessage(LlmRequest request) {
        String user = "";
        for (ChatMessage m : request.messages()) {
            if (m.role() == ChatMessage.Role.USER) {
                user = m.content();
            }
        }
        return user;
    }

    private List<String> lookup(String user) {
        return lookupIn(sqlByQuestion, user);
    }

    private static List<String> lookupIn(Map<String, List<String>> sqlByQuestion, String user) {
        if (!user.startsWith(QUESTION_PREFIX)) {
            return null;
        }
        String rest = user.substring(QUESTION_PREFIX.length());
        for (int nl = rest.indexOf('\n'); nl >= 0; nl = rest.indexOf('\n', nl + 1)) {
            List<String> found = sqlByQuestion.get(normalise(rest.substring(0, nl)));
            if (found != null) {
                return found;
            }
        }
        return sqlByQuestion.get(normalise(rest));
    }

    private String correction(String user) {
        int from = user.indexOf(CORRECTION_MARKER) + CORRECTION_MARKER.length();
        int to = user.indexOf("\n\nWhat went wrong", from);
        String failed = (to < 0 ? user.substring(from) : user.substring(from, to)).strip();
        Map<String, Object> reply = new LinkedHashMap<>();
        List<String> alternatives = correctionsByQuestion.isEmpty() ? null : lookupIn(correctionsByQuestion, user);
        if (alternatives != null) {
            for (String alt : alternatives) {
                if (!alt.isBlank() && !normalise(alt).equals(normalise(failed))) {
                    reply.put("reason", "replay: another prediction file's SQL stands in for a correction");
                    reply.put("sql", alt);
                    return Json.write(reply);
                }
            }
        }
        reply.put("reason", "replay: no model to take the feedback in; the SQL is returned unchanged");
        reply.put("sql", failed);
        return Json.write(reply);
    }

    private static LlmResponse respond(LlmRequest request, List<String> texts) {
        long out = 0;
        for (String t : texts) {
            out += (t.length() + 3) / 4;
        }
        return new LlmResponse(texts, new TokenUsage((request.text().length() + 3) / 4, out), "replay");
    }

    private static String normalise(String s) {
        return s.strip().replaceAll("\\s+", " ");
    }

    private static String abbreviate(String s) {
        String one = s.replaceAll("\\s+", " ").strip();
        return one.length() > 120 ? one.substring(0, 120) + "…" : one;
    }
}
