package dev.sqlagent.choose;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the wording of a question asks of its result, in English and Chinese: a single count, a
 * superlative, one row per group, distinct values, an order, or only whether something exists. Also the
 * question's words (lower case, with singular and plural forms) for linking to the schema. Immutable.
 *
 * @param count the question asks how many ("how many", "number of", 多少, 几)
 * @param grouping it asks per group ("each", "per", "for every", 每, 各)
 * @param superlative it asks for an extreme ("most", "highest", "youngest", 最)
 * @param distinct it asks for different values ("different", "distinct", "unique", 不同)
 * @param ordered it asks for an order ("sorted", "in descending order", "alphabetically", 排序)
 * @param existence it asks whether something exists, so an empty result is a fair answer
 * @param average it names an average ("average", "mean", 平均)
 * @param total it names a sum ("total", "sum", 总和, 合计) other than a total number
 * @param words the question's words and their singular and plural forms, lower case
 * @param text the question in lower case
 */
record QuestionCues(boolean count, boolean grouping, boolean superlative, boolean distinct, boolean ordered,
        boolean existence, boolean average, boolean total, Set<String> words, String text) {

    private static final Pattern COUNT = Pattern.compile(
            "\\b(how many|number of|count of|count the|count how)\\b|多少|几个|几位|几种|几家|几名|数量|个数|人数");
    private static final Pattern GROUPING = Pattern.compile(
            "\\b(each|per|for every|for all the different)\\b|每个|每一|每种|每位|每家|各个|各|分别");
    private static final Pattern SUPERLATIVE = Pattern.compile(
            "\\b(most|least|highest|lowest|largest|smallest|biggest|greatest|fewest|maximum|minimum|oldest"
                    + "|youngest|newest|earliest|latest|longest|shortest|best|worst|top|cheapest|heaviest|lightest"
                    + "|richest|poorest|tallest|shortest)\\b|最");
    private static final Pattern NOT_SUPERLATIVE = Pattern.compile("\\bat (most|least)\\b|\\bmost of\\b");
    private static final Pattern DISTINCT = Pattern.compile("\\b(different|distinct|unique)\\b|不同|不重复|去重");
    private static final Pattern ORDERED = Pattern.compile(
            "\\b(order|ordered|sort|sorted|sorting|descending|ascending|alphabetical|alphabetically)\\b"
                    + "|排序|降序|升序|从高到低|从低到高|从大到小|从小到大|依次");
    private static final Pattern EXISTENCE = Pattern.compile(
            "\\b(is there|are there|does any|do any|whether|exist|exists)\\b|是否|有没有|有无|存在");
    private static final Pattern AVERAGE = Pattern.compile("\\b(average|mean|avg)\\b|平均");
    private static final Pattern TOTAL = Pattern.compile("\\b(total|sum|combined|altogether)\\b|总和|合计|总计|总额");
    private static final Pattern TOTAL_NUMBER = Pattern.compile("\\btotal (number|count)\\b");
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");

    /**
     * @param question the question as asked
     * @return its cues
     */
    static QuestionCues of(String question) {
        String q = question.toLowerCase(Locale.ROOT);
        boolean superlative = SUPERLATIVE.matcher(NOT_SUPERLATIVE.matcher(q).replaceAll(" ")).find();
        boolean total = TOTAL.matcher(TOTAL_NUMBER.matcher(q).replaceAll(" ")).find();
        return new QuestionCues(COUNT.matcher(q).find(), GROUPING.matcher(q).find(), superlative,
                DISTINCT.matcher(q).find(), ORDERED.matcher(q).find(), EXISTENCE.matcher(q).find(),
                AVERAGE.matcher(q).find(), total, Set.copyOf(wordForms(q)), q);
    }

    /** {@return the question's words in order of appearance (lower case, as written)} */
    List<String> wordsInOrder() {
        return words(text);
    }

    /**
     * @param question a question as asked
     * @return its words in order of appearance, lower case (what {@link #wordsInOrder()} gives, without
     *     reading the cues)
     */
    static List<String> wordsOf(String question) {
        return words(question.toLowerCase(Locale.ROOT));
    }

    private static List<String> words(String lowerCase) {
        List<String> out = new ArrayList<>();
        Matcher m = WORD.matcher(lowerCase);
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    /** {@return the names of the cues present, for the trace} */
    List<String> names() {
        List<String> out = new ArrayList<>();
        if (count) {
            out.add(grouping ? "count per group" : "count");
        } else if (grouping) {
            out.add("per group");
        }
        if (superlative) {
            out.add("superlative");
        }
        if (distinct) {
            out.add("distinct");
        }
        if (ordered) {
            out.add("ordered");
        }
        if (existence) {
            out.add("existence");
        }
        return out;
    }

    static Set<String> wordForms(String text) {
        Set<String> out = new LinkedHashSet<>();
        Matcher m = WORD.matcher(text.toLowerCase(Locale.ROOT));
        while (m.find()) {
            out.addAll(forms(m.group()));
        }
        return out;
    }

    /** A word, its singular and its plural (rough English rules; other scripts as written). */
    static Set<String> forms(String w) {
        Set<String> out = new LinkedHashSet<>();
        out.add(w);
        if (w.length() > 3 && w.endsWith("ies")) {
            out.add(w.substring(0, w.length() - 3) + "y");
        } else if (w.length() > 3 && (w.endsWith("ses") || w.endsWith("xes") || w.endsWith("ches")
                || w.endsWith("shes"))) {
            out.add(w.substring(0, w.length() - 2));
        } else if (w.length() > 2 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us")) {
            out.add(w.substring(0, w.length() - 1));
        }
        if (w.endsWith("y") && w.length() > 2) {
            out.add(w.substring(0, w.length() - 1) + "ies");
        } else if (!w.endsWith("s")) {
            out.add(w + "s");
        }
        return out;
    }
}
