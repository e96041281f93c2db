package dev.sqlagent.internal;

import dev.sqlagent.Dialect;
import dev.sqlagent.engine.Engines;
import dev.sqlagent.PromptTemplates;
import dev.sqlagent.PromptTemplates.Name;
import dev.sqlagent.llm.ChatMessage;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds every role's messages from the {@link PromptTemplates}. The prompts describe the task, the
 * schema and the feedback; they never tell the model how many tries it has or how the guard works.
 */
public final class Prompts {

    private final PromptTemplates templates;
    private final Dialect dialect;

    /**
     * @param templates the templates
     * @param dialect the database's dialect
     */
    public Prompts(PromptTemplates templates, Dialect dialect) {
        this.templates = templates;
        this.dialect = dialect;
    }

    /**
     * @param question the question
     * @param schema the schema the model may use
     * @param plan the decomposer's steps as text, or empty
     * @param examples similar solved questions as text, or empty
     * @return the messages asking for the SQL
     */
    public List<ChatMessage> generate(String question, String schema, String plan, String examples) {
        Map<String, String> v = new HashMap<>();
        v.put("question", question);
        v.put("plan", plan.isEmpty() ? "" : plan + "\n");
        return List.of(ChatMessage.system(system(schema, examples)),
                ChatMessage.user(templates.render(Name.REFINER_GENERATE, v)));
    }

    /**
     * @param question the question
     * @param schema the schema the model may use
     * @param failedSql the SQL that failed
     * @param category the failure's category
     * @param feedback the database's message or the finding
     * @param repairs similar past repairs as text, or empty
     * @return the messages asking for the corrected SQL as JSON {@code {"reason", "sql"}}
     */
    public List<ChatMessage> correct(String question, String schema, String failedSql, String category,
            String feedback, String repairs) {
        Map<String, String> v = new HashMap<>();
        v.put("question", question);
        v.put("sql", failedSql);
        v.put("category", category);
        v.put("feedback", feedback);
        v.put("repairs", repairs.isEmpty() ? "" : "\n" + repairs + "\n");
        return List.of(ChatMessage.system(system(schema, "")),
                ChatMessage.user(templates.render(Name.REFINER_CORRECT, v)));
    }

    /**
     * @param question the question
     * @param schema the whole (allowed) schema
     * @return the selector's messages
     */
    public List<ChatMessage> select(String question, String schema) {
        return List.of(ChatMessage.system(templates.render(Name.SELECTOR, Map.of("schema", schema))),
                ChatMessage.user("Question: " + question));
    }

    /**
     * @param question the question
     * @param schema the selected schema
     * @param maxSteps the most steps wanted
     * @return the decomposer's messages
     */
    public List<ChatMessage> decompose(String question, String schema, int maxSteps) {
        return List.of(ChatMessage.system(templates.render(Name.DECOMPOSER,
                Map.of("schema", schema, "max_steps", Integer.toString(maxSteps)))),
                ChatMessage.user("Question: " + question));
    }

    /**
     * @param question the question
     * @param summary the execution summary
     * @param sql the SQL judged
     * @param schema the schema
     * @return the judge's messages
     */
    public List<ChatMessage> judge(String question, String sql, String summary, String schema) {
        return List.of(ChatMessage.system(templates.render(Name.JUDGE,
                Map.of("dialect", dialectName(dialect), "schema", schema))),
                ChatMessage.user("Question: " + question + "\nSQL:\n" + sql + "\nExecution: " + summary));
    }

    /**
     * @param question the question
     * @param finalists the finalist answers side by side, as {@link dev.sqlagent.choose.FinalistJudge#render} writes them
     * @param schema the schema
     * @return the judge's messages asking it to pick one finalist
     */
    public List<ChatMessage> judgeChoice(String question, String finalists, String schema) {
        return List.of(ChatMessage.system(templates.render(Name.JUDGE_CHOOSE,
                Map.of("dialect", dialectName(dialect), "schema", schema))),
                ChatMessage.user("Question: " + question + "\n\n" + finalists));
    }

    /**
     * @param history the earlier turns as text
     * @param question the follow-up
     * @return the rewriter's messages
     */
    public List<ChatMessage> rewrite(String history, String question) {
        return List.of(ChatMessage.system(templates.render(Name.REWRITER, Map.of("history", history))),
                ChatMessage.user("Follow-up: " + question));
    }

    /**
     * @param metrics the registered metrics as text
     * @param question the question
     * @return the router's messages
     */
    public List<ChatMessage> route(String metrics, String question) {
        return List.of(ChatMessage.system(templates.render(Name.ROUTER, Map.of("metrics", metrics))),
                ChatMessage.user("Question: " + question));
    }

    private String system(String schema, String examples) {
        Map<String, String> v = new HashMap<>();
        v.put("dialect", dialectName(dialect));
        v.put("dialect_hints", dialectHints(dialect));
        v.put("schema", schema);
        v.put("examples", examples.isEmpty() ? "" : "\nSolved questions like this one:\n" + examples);
        return templates.render(Name.REFINER_SYSTEM, v);
    }

    static String dialectName(Dialect d) {
        return Engines.of(d).guard().promptName();
    }

    static String dialectHints(Dialect d) {
        return Engines.of(d).guard().promptHints();
    }
}
