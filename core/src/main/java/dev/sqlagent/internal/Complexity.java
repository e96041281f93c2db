package dev.sqlagent.internal;

import java.util.regex.Pattern;

/**
 * Cheap heuristics deciding whether a question is complex enough for the Decomposer: several tables,
 * aggregation with ranking, a per-group superlative, or a nested condition.
 */
public final class Complexity {

    private static final Pattern AGGREGATE = Pattern.compile(
            "(?i)\\b(total|sum|average|avg|count|how many|number of|amount)\\b|总|合计|平均|数量|多少|销售额");
    private static final Pattern RANKING = Pattern.compile(
            "(?i)\\b(highest|lowest|most|least|top|largest|smallest|best|worst|rank|maximum|minimum)\\b"
                    + "|最高|最低|最多|最少|最大|最小|排名|前\\s*\\d+|冠军");
    private static final Pattern PER_GROUP = Pattern.compile("(?i)\\b(each|every|per|for all)\\b|每个|各个|每一|按");
    private static final Pattern NESTED = Pattern.compile(
            "(?i)\\b(than the average|above average|below average|not in|who have not|that have no|without any|"
                    + "more than any|both .+ and|except|but not)\\b|高于平均|低于平均|没有|不包括|除了");

    private Complexity() {
    }

    /**
     * @param question the question
     * @param catalog the schema
     * @return how many of the catalog's tables the question names (a table name, singular or plural,
     *     with underscores read as spaces)
     */
    public static int tablesNamed(String question, dev.sqlagent.schema.SchemaCatalog catalog) {
        return namedTables(question, catalog).size();
    }

    /**
     * @param question the question
     * @param catalog the schema
     * @return the catalog's tables the question names (a table name, singular or plural, with underscores
     *     read as spaces), as the catalog spells them
     */
    public static java.util.Set<String> namedTables(String question, dev.sqlagent.schema.SchemaCatalog catalog) {
        String q = question.toLowerCase(java.util.Locale.ROOT);
        java.util.Set<String> named = new java.util.LinkedHashSet<>();
        for (dev.sqlagent.schema.SchemaCatalog.Table t : catalog.tables()) {
            String name = t.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
            String stem = name.endsWith("s") ? name.substring(0, name.length() - 1) : name;
            if (q.contains(name) || (stem.length() >= 3 && q.contains(stem))) {
                named.add(t.name());
            }
        }
        return named;
    }

    /**
     * @param question the question
     * @param tables how many tables the selected schema has, or the question names
     * @return whether to decompose
     */
    public static boolean isComplex(String question, int tables) {
        if (tables >= 3 && (AGGREGATE.matcher(question).find() || RANKING.matcher(question).find()
                || PER_GROUP.matcher(question).find())) {
            return true;
        }
        boolean ranking = RANKING.matcher(question).find();
        return (ranking && (AGGREGATE.matcher(question).find() || PER_GROUP.matcher(question).find()))
                || NESTED.matcher(question).find();
    }
}
