package dev.sqlagent.clean;

import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a model's reply into the text of one SQL statement, the way a careful person would copy it out
 * of a chat window. Stateless and thread-safe; it never executes, parses or judges the SQL, and it never
 * throws: any input, however long or odd, gives a result in time linear in its length.
 *
 * <p>In order, it:
 * <ol>
 *   <li>drops reasoning blocks ({@code <think>…</think>}, {@code <thinking>}, {@code <reasoning>}), a
 *       closing tag with no opening one (everything before it is reasoning), and an unclosed
 *       {@code <think>} at the start (the tag only);</li>
 *   <li>drops chat-template tokens and cuts at the first end-of-sequence token ({@code </s>},
 *       {@code <|eot_id|>}, {@code <|im_end|>}, {@code <|endoftext|>}, {@code <|end|>}, …);</li>
 *   <li>takes the first markdown code block ({@code ```sql}, {@code ```}, inline or unclosed) that holds
 *       SQL, or else the text around the blocks;</li>
 *   <li>reads a JSON reply ({@code {"sql": "…"}}, also embedded in prose or in a {@code ```json} block)
 *       with jackson-core and cleans the field's value;</li>
 *   <li>skips preambles in any language ("Sure! Here is the query:", "好的，首先我需要分析…",
 *       {@code SQL:} labels) by starting at the first statement keyword that stands where SQL begins (line
 *       start, after a colon or tag) and is followed by SQL-looking text; lower-case keywords in the middle
 *       of a sentence ("we select the names") and capitalised ones ("Select the rows") never start SQL;</li>
 *   <li>ends before the first line of explanation ("This query joins…", "解释：…", markdown), or at a
 *       semicolon followed by explanation;</li>
 *   <li>removes a wrapping quote, backtick or bold marker, a trailing full stop, stray fence or closing
 *       tag, and trailing semicolons.</li>
 * </ol>
 *
 * <p><b>One statement, but no silent editing.</b> Text after a semicolon that is not explanation is
 * kept: {@code SELECT 1; DROP TABLE t} comes out whole so that the guard rejects the stacked
 * statements. Dropping the second statement here would hide an attack (and its record) from the guard.
 * Likewise a reply that writes DELETE, DROP, INSERT or another statement is passed on as that statement,
 * never cut down to a SELECT nested inside it. Comments are left alone too; the guard decides about them.
 */
public final class SqlCleaner {

    private static final Logger LOG = LoggerFactory.getLogger(SqlCleaner.class);
    private static final SqlCleaner INSTANCE = new SqlCleaner();
    private static final int PREVIEW = 60;
    private static final String NO_SQL = "no SQL query found in the reply";

    private SqlCleaner() {
    }

    /** {@return the cleaner (one shared, stateless instance)} */
    public static SqlCleaner create() {
        return INSTANCE;
    }

    /**
     * The outcome of cleaning: the SQL found, or why none was.
     *
     * @param sql the SQL, trimmed and without trailing semicolons, when one was found
     * @param problem why no SQL was found (one sentence), empty when one was
     */
    public record Cleaned(Optional<String> sql, String problem) {
        /**
         * Checks the parts.
         *
         * @param sql the SQL, trimmed and without trailing semicolons, when one was found
         * @param problem why no SQL was found (one sentence), empty when one was
         * @throws NullPointerException if a part is null
         */
        public Cleaned {
            Objects.requireNonNull(sql, "sql");
            Objects.requireNonNull(problem, "problem");
        }
    }

    /**
     * Cleans a reply.
     *
     * @param reply the model's text, may be null
     * @return the SQL, or an empty {@code sql} and the reason there is none; never null, never throws
     */
    public Cleaned clean(String reply) {
        try {
            return cleanOrThrow(reply);
        } catch (RuntimeException e) {
            // a safety net: no input should get here, but a cleaner must not break the agent
            LOG.debug("the cleaner failed on a reply of {} characters", reply == null ? 0 : reply.length(), e);
            return none("the reply could not be read as SQL (" + e.getClass().getSimpleName() + ")");
        }
    }

    private static Cleaned cleanOrThrow(String reply) {
        if (reply == null || reply.isBlank()) {
            return none("the reply is empty");
        }
        Noise.Stripped stripped = Noise.stripReasoning(reply);
        String text = Noise.stripSpecialTokens(stripped.text());
        if (text.isBlank()) {
            return none(stripped.hadReasoning() ? "the reply holds only reasoning (a <think> block) and no answer"
                    : "the reply holds only end-of-sequence or template tokens");
        }
        return fromFencedText(text, true);
    }

    private static Cleaned fromFencedText(String text, boolean allowJson) {
        if (allowJson && text.strip().startsWith("{")) {
            // a JSON reply first: fences inside its string values belong to the value
            JsonSql.Found f = JsonSql.find(text);
            if (f.kind() == JsonSql.Found.Kind.SQL) {
                return fromJsonValue(f.value());
            }
            if (f.kind() == JsonSql.Found.Kind.PROBLEM) {
                return none(f.value());
            }
        }
        Fences.Split split = Fences.split(text);
        if (split.blocks().isEmpty()) {
            return fromPlainText(text, allowJson);
        }
        Cleaned specific = null;
        for (String block : split.blocks()) {
            Cleaned c = fromPlainText(block, allowJson);
            if (c.sql().isPresent()) {
                return c;
            }
            if (specific == null && !c.problem().startsWith(NO_SQL)) {
                specific = c;
            }
        }
        Cleaned around = fromPlainText(split.outside(), allowJson);
        if (around.sql().isPresent()) {
            return around;
        }
        return specific != null ? specific
                : none(NO_SQL + ": neither its code blocks nor the text around them hold one (it begins \""
                        + Chars.preview(text, PREVIEW) + "\")");
    }

    private static Cleaned fromPlainText(String text, boolean allowJson) {
        if (allowJson) {
            JsonSql.Found f = JsonSql.find(text);
            if (f.kind() == JsonSql.Found.Kind.SQL) {
                return fromJsonValue(f.value());
            }
            if (f.kind() == JsonSql.Found.Kind.PROBLEM) {
                return none(f.value());
            }
        }
        SqlLocator.Start start = SqlLocator.find(text);
        if (start == null) {
            return none(text.isBlank() ? NO_SQL
                    : NO_SQL + " (it begins \"" + Chars.preview(text, PREVIEW) + "\")");
        }
        String sql = SqlEnd.extract(text, start);
        if (sql.isBlank()) {
            return none(NO_SQL + " (only an empty statement)");
        }
        return found(sql);
    }

    /** The value of a JSON field meant to hold SQL: cleaned like a reply, but a bare statement is kept. */
    private static Cleaned fromJsonValue(String value) {
        Cleaned c = fromFencedText(value, false);
        if (c.sql().isPresent()) {
            return c;
        }
        String v = value.strip();
        if (JsonSql.startsWithSqlVerb(v)) {
            String sql = SqlEnd.tidy(v);
            if (!sql.isBlank()) {
                return found(sql);
            }
        }
        return none("the JSON reply's SQL field holds no SQL query (\"" + Chars.preview(v, PREVIEW) + "\")");
    }

    private static Cleaned found(String sql) {
        return new Cleaned(Optional.of(sql), "");
    }

    private static Cleaned none(String problem) {
        return new Cleaned(Optional.empty(), problem);
    }
}
