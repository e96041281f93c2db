package dev.sqlagent;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * The prompt templates of every role, read from the resources {@code dev/sqlagent/prompts/*.txt} and
 * overridable by the host. A template holds {@code {{name}}} placeholders filled once, in one pass (a
 * value that itself contains {@code {{…}}} is not expanded again). Immutable.
 *
 * <pre>{@code
 * PromptTemplates prompts = PromptTemplates.defaults()
 *     .with(PromptTemplates.Name.REFINER_SYSTEM, myHouseStyle);
 * SqlAgent.builder().prompts(prompts)...
 * }</pre>
 *
 * <p>Templates describe the task, the schema and the feedback. None says how many attempts the model
 * has or how the guard works, and an override should not either.
 */
public final class PromptTemplates {

    /** The templates, with the placeholders each may use. */
    public enum Name {
        /** The refiner's system message: {@code dialect, dialect_hints, schema, examples}. */
        REFINER_SYSTEM("refiner-system.txt"),
        /** The refiner's request for SQL: {@code question, plan}. */
        REFINER_GENERATE("refiner-generate.txt"),
        /** The single correction: {@code question, sql, category, feedback, repairs}. */
        REFINER_CORRECT("refiner-correct.txt"),
        /** The selector's system message: {@code schema}. */
        SELECTOR("selector.txt"),
        /** The decomposer's system message: {@code schema, max_steps}. */
        DECOMPOSER("decomposer.txt"),
        /** The judge's system message: {@code dialect, schema}. */
        JUDGE("judge.txt"),
        /** The rewriter's system message: {@code history}. */
        REWRITER("rewriter.txt"),
        /** The metric router's system message: {@code metrics}. */
        ROUTER("router.txt"),
        /** The judge's system message when it picks among finalist answers: {@code dialect, schema}. */
        JUDGE_CHOOSE("judge-choose.txt");

        private final String resource;

        Name(String resource) {
            this.resource = resource;
        }
    }

    private static final PromptTemplates DEFAULTS = loadDefaults();

    private final Map<Name, String> templates;

    private PromptTemplates(Map<Name, String> templates) {
        this.templates = templates;
    }

    /** {@return the templates shipped with the library} */
    public static PromptTemplates defaults() {
        return DEFAULTS;
    }

    /**
     * Returns a copy with one template replaced; this instance is unchanged.
     *
     * @param name which template, not null
     * @param template its replacement, not blank
     * @return a copy with that template replaced
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code template} is blank
     */
    public PromptTemplates with(Name name, String template) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(template, "template");
        if (template.isBlank()) {
            throw new IllegalArgumentException("template " + name + " must not be blank");
        }
        Map<Name, String> copy = new EnumMap<>(templates);
        copy.put(name, template);
        return new PromptTemplates(copy);
    }

    /**
     * Returns the text of one template, with its placeholders unfilled.
     *
     * @param name which template
     * @return its text
     */
    public String template(Name name) {
        return templates.get(name);
    }

    /**
     * Fills a template.
     *
     * @param name which template
     * @param values placeholder values; a placeholder without a value is left as it is
     * @return the text
     */
    public String render(Name name, Map<String, String> values) {
        String t = templates.get(name);
        StringBuilder out = new StringBuilder(t.length() + 256);
        int i = 0;
        while (i < t.length()) {
            int open = t.indexOf("{{", i);
            if (open < 0) {
                out.append(t, i, t.length());
                break;
            }
            int close = t.indexOf("}}", open + 2);
            if (close < 0) {
                out.append(t, i, t.length());
                break;
            }
            String key = t.substring(open + 2, close).trim();
            out.append(t, i, open);
            String v = values.get(key);
            out.append(v != null ? v : t.substring(open, close + 2));
            i = close + 2;
        }
        return out.toString();
    }

    private static PromptTemplates loadDefaults() {
        Map<Name, String> m = new EnumMap<>(Name.class);
        for (Name n : Name.values()) {
            String path = "/dev/sqlagent/prompts/" + n.resource;
            try (InputStream in = PromptTemplates.class.getResourceAsStream(path)) {
                if (in == null) {
                    throw new IllegalStateException("missing prompt resource " + path);
                }
                m.put(n, new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read prompt resource " + path, e);
            }
        }
        return new PromptTemplates(m);
    }
}
