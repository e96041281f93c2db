package dev.sqlagent.choose;

import dev.sqlagent.schema.SchemaCatalog;
import dev.sqlagent.schema.SchemaEnrichment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tables and columns a question's words point to in the schema catalog: a name's words (split at
 * underscores and case changes, singular or plural) among the question's, a business term of the
 * enrichment (synonym) in the question, or a sample value quoted in it. Then, for a SQL, the share of
 * those it reads. Immutable.
 */
final class SchemaLinks {

    /** Name parts too general to point anywhere on their own. */
    private static final Set<String> GENERIC = Set.of("id", "ids", "ref", "tbl", "table", "of", "the", "and", "has",
            "info", "data", "list", "details", "detail", "record", "records", "code", "type", "types", "t", "is", "in");
    private static final Pattern PART = Pattern.compile("[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\\p{N}+|[^\\p{Alnum}_\\s]+");

    /** Pointed tables (lower case) with a weight in (0, 1]. */
    private final Map<String, Double> tables;
    /** Pointed columns (lower-case names) with a weight in (0, 1]. */
    private final Map<String, Double> columns;

    private SchemaLinks(Map<String, Double> tables, Map<String, Double> columns) {
        this.tables = tables;
        this.columns = columns;
    }

    static SchemaLinks of(QuestionCues cues, SchemaCatalog catalog) {
        Map<String, Double> tables = new LinkedHashMap<>();
        Map<String, Double> columns = new LinkedHashMap<>();
        if (catalog == null) {
            return new SchemaLinks(tables, columns);
        }
        SchemaEnrichment e = catalog.enrichment();
        for (SchemaCatalog.Table t : catalog.tables()) {
            String tn = t.name().toLowerCase(Locale.ROOT);
            double w = share(parts(t.name()), cues);
            for (String term : e.termsFor(t.name(), null)) {
                if (mentions(cues, term)) {
                    w = 1.0;
                }
            }
            if (w > 0) {
                tables.merge(tn, w, Math::max);
            }
            for (SchemaCatalog.Column c : t.columns()) {
                List<String> ps = parts(c.name());
                double cw = ps.isEmpty() ? 0 : share(ps, cues) >= 1.0 ? 1.0 : 0.0;
                for (String term : e.termsFor(t.name(), c.name())) {
                    if (mentions(cues, term)) {
                        cw = 1.0;
                    }
                }
                for (String v : e.sampleValues(t.name(), c.name())) {
                    if (v.strip().length() >= 3 && cues.text().contains(v.strip().toLowerCase(Locale.ROOT))) {
                        cw = 1.0;
                    }
                }
                if (cw > 0) {
                    columns.merge(c.name().toLowerCase(Locale.ROOT), cw, Math::max);
                }
            }
        }
        return new SchemaLinks(tables, columns);
    }

    /** {@return whether the question points anywhere} */
    boolean isEmpty() {
        return tables.isEmpty() && columns.isEmpty();
    }

    /**
     * @param sql the shape of a candidate's SQL
     * @return the weighted share of pointed tables and columns it names, averaged over the two kinds
     *     that the question points to; 0 when it points to none
     */
    double coverage(SqlShape sql) {
        double sum = 0;
        int kinds = 0;
        for (Map<String, Double> pointed : List.of(tables, columns)) {
            if (pointed.isEmpty()) {
                continue;
            }
            double all = 0;
            double read = 0;
            for (Map.Entry<String, Double> p : pointed.entrySet()) {
                all += p.getValue();
                read += sql.identifiers().contains(p.getKey()) ? p.getValue() : 0;
            }
            sum += read / all;
            kinds++;
        }
        return kinds == 0 ? 0 : sum / kinds;
    }

    @Override
    public String toString() {
        return "tables " + tables.keySet() + ", columns " + columns.keySet();
    }

    /** The share of a name's meaningful parts found among the question's words. */
    private static double share(List<String> parts, QuestionCues cues) {
        int meaningful = 0;
        int found = 0;
        for (String p : parts) {
            if (GENERIC.contains(p)) {
                continue;
            }
            meaningful++;
            found += mentions(cues, p) ? 1 : 0;
        }
        return meaningful == 0 ? 0 : (double) found / meaningful;
    }

    /** Whether a word or term occurs in the question (any form of a single word; a phrase or CJK text as a substring). */
    static boolean mentions(QuestionCues cues, String term) {
        String t = term.strip().toLowerCase(Locale.ROOT);
        if (t.isEmpty()) {
            return false;
        }
        if (t.chars().allMatch(ch -> ch < 128 && Character.isLetterOrDigit(ch))) {
            for (String f : QuestionCues.forms(t)) {
                if (cues.words().contains(f)) {
                    return true;
                }
            }
            return false;
        }
        return t.length() >= 2 && cues.text().contains(t);
    }

    /** A name's parts, lower case: {@code FullName} and {@code full_name} give {@code full, name}. */
    static List<String> parts(String name) {
        List<String> out = new ArrayList<>();
        for (String piece : name.split("[_\\s.]+")) {
            Matcher m = PART.matcher(piece);
            while (m.find()) {
                out.add(m.group().toLowerCase(Locale.ROOT));
            }
        }
        return out;
    }
}
