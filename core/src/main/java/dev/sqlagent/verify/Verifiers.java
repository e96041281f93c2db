package dev.sqlagent.verify;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The deterministic verifiers: checks of a result that need no model call. Each finding is one
 * sentence that can serve as the feedback of the single correction.
 *
 * <ul>
 *   <li>{@link #nonEmptyWhenRowsExpected()}: an empty result to a question that is not a yes/no or
 *       existence question;</li>
 *   <li>{@link #questionNumbersInSql()}: a number, year or threshold stated in the question
 *       ({@code 2023}, {@code more than 3}, {@code 500万}) that the SQL never mentions;</li>
 *   <li>{@link #allNullColumns()}: a column that is NULL in every row;</li>
 *   <li>{@link #onePerGroup()}: a "top one per X" question whose result repeats an X.</li>
 * </ul>
 * {@link #standard()} gives all four.
 */
public final class Verifiers {

    private Verifiers() {
    }

    /** {@return the four deterministic verifiers} */
    public static List<ResultVerifier> standard() {
        return List.of(nonEmptyWhenRowsExpected(), questionNumbersInSql(), allNullColumns(), onePerGroup());
    }

    private static final Pattern EXISTENCE = Pattern.compile(
            "(?i)\\b(is there|are there|does any|do any|whether|exist|exists)\\b|是否|有没有|有无|存在");

    /** {@return a verifier that flags an empty result unless the question asks whether something exists} */
    public static ResultVerifier nonEmptyWhenRowsExpected() {
        LastQuestion<Boolean> existence = new LastQuestion<>(q -> EXISTENCE.matcher(q).find());
        return (question, sql, table) -> table.rowCount() == 0 && !existence.of(question)
                ? Optional.of("the query returned no rows although the question expects some; check the filter"
                        + " values and joins against the data")
                : Optional.empty();
    }

    private static final Pattern NUMBER = Pattern.compile("(?<![\\w.])(\\d+(?:\\.\\d+)?)\\s*(万|亿|千|k|K|m|M)?(?![\\w.])");
    private static final Pattern ENGLISH_SMALL = Pattern.compile(
            "(?i)\\b(?:more|less|fewer|greater|larger|smaller|higher|lower|at least|at most|over|under|above|below|top)"
                    + "\\s+(?:than\\s+)?(one|two|three|four|five|six|seven|eight|nine|ten)\\b");
    private static final Pattern INCLUSIVE = Pattern.compile(
            "(at least|at most|no less than|no more than|not less than|not more than|不少于|不超过|至少|至多|以上|以下)\\s*$");
    private static final Pattern INCLUSIVE_AFTER = Pattern.compile(
            "^\\s*(?:\\p{L}+\\s+)?(or more|or less|or fewer|or above|or below|or greater|or over|or under|以上|以下|及以上|及以下)");
    private static final Map<String, Integer> WORDS = Map.of("one", 1, "two", 2, "three", 3, "four", 4, "five", 5,
            "six", 6, "seven", 7, "eight", 8, "nine", 9, "ten", 10);
    private static final Pattern SQL_NUMBER = Pattern.compile("(?<![\\w.])(\\d+(?:\\.\\d+)?)(?![\\w])");

    /**
     * {@return a verifier that flags a number stated in the question (digits, {@code 500万}, or a small
     * number word after a comparison such as "more than three") which appears nowhere in the SQL, neither
     * as a number nor inside a string or date literal}
     */
    public static ResultVerifier questionNumbersInSql() {
        LastQuestion<List<Stated>> statedIn = new LastQuestion<>(Verifiers::stated);
        return (question, sql, table) -> {
            List<Stated> stated = statedIn.of(question);
            if (stated.isEmpty()) {
                return Optional.empty();
            }
            Set<BigDecimal> inSql = new LinkedHashSet<>();
            Matcher m = SQL_NUMBER.matcher(sql);
            while (m.find()) {
                inSql.add(new BigDecimal(m.group(1)).stripTrailingZeros());
            }
            List<String> missing = new ArrayList<>();
            for (Stated s : stated) {
                boolean found = false;
                for (BigDecimal accepted : s.accepted()) {
                    if (inSql.contains(accepted)) {
                        found = true;
                        break;
                    }
                }
                if (!found) {
                    missing.add(s.text());
                }
            }
            return missing.isEmpty() ? Optional.empty()
                    : Optional.of("the question states " + String.join(", ", missing)
                            + " but the SQL never uses " + (missing.size() == 1 ? "it" : "them"));
        };
    }

    /** A number stated in a question and the SQL values that would honour it. */
    private record Stated(String text, List<BigDecimal> accepted) {
    }

    static List<Stated> stated(String question) {
        List<Stated> out = new ArrayList<>();
        Matcher m = NUMBER.matcher(question);
        while (m.find()) {
            BigDecimal base = new BigDecimal(m.group(1));
            String unit = m.group(2);
            List<BigDecimal> accepted = new ArrayList<>();
            accepted.add(base.stripTrailingZeros());
            String before = question.substring(Math.max(0, m.start() - 16), m.start()).toLowerCase(Locale.ROOT);
            String after = question.substring(m.end(), Math.min(question.length(), m.end() + 24)).toLowerCase(Locale.ROOT);
            if ((INCLUSIVE.matcher(before).find() || INCLUSIVE_AFTER.matcher(after).find()) && base.scale() <= 0) {
                // "at least 3" is often written "> 2", "at most 3" as "< 4"
                accepted.add(base.subtract(BigDecimal.ONE).stripTrailingZeros());
                accepted.add(base.add(BigDecimal.ONE).stripTrailingZeros());
            }
            if (unit != null) {
                BigDecimal factor;
                switch (unit) {
                    case "万": factor = BigDecimal.valueOf(10_000); break;
                    case "亿": factor = BigDecimal.valueOf(100_000_000); break;
                    case "千": case "k": case "K": factor = BigDecimal.valueOf(1_000); break;
                    default: factor = BigDecimal.valueOf(1_000_000);
                }
                accepted.add(base.multiply(factor).stripTrailingZeros());
            }
            out.add(new Stated(m.group().trim(), accepted));
        }
        Matcher w = ENGLISH_SMALL.matcher(question);
        while (w.find()) {
            int v = WORDS.get(w.group(1).toLowerCase(Locale.ROOT));
            out.add(new Stated(w.group(), List.of(BigDecimal.valueOf(v))));
        }
        return List.copyOf(out);
    }

    /** {@return a verifier that flags result columns that are NULL in every row} */
    public static ResultVerifier allNullColumns() {
        return (question, sql, table) -> {
            if (table.rowCount() == 0) {
                return Optional.empty();
            }
            List<String> empty = new ArrayList<>();
            for (int c = 0; c < table.columns().size(); c++) {
                boolean allNull = true;
                for (List<Object> row : table.rows()) {
                    if (row.get(c) != null) {
                        allNull = false;
                        break;
                    }
                }
                if (allNull) {
                    empty.add(table.columns().get(c).name());
                }
            }
            return empty.isEmpty() ? Optional.empty()
                    : Optional.of("column(s) " + String.join(", ", empty) + " are NULL in every row; a join or"
                            + " a column choice is probably wrong");
        };
    }

    private static final Pattern PER_GROUP = Pattern.compile(
            "(?i)(\\b(each|every|per)\\b|每个|各个|每一个|各)");
    private static final Pattern SUPERLATIVE = Pattern.compile(
            "(?i)\\b(highest|lowest|most|least|largest|smallest|best|worst|top|maximum|minimum|oldest|youngest|"
                    + "earliest|latest|biggest)\\b|最高|最低|最多|最少|最大|最小|最好|冠军|第一");
    private static final Pattern GROUPING = Pattern.compile(
            "(?is)\\b(?:partition\\s+by|group\\s+by)\\s+([\\w.\"`\\[\\]]+)");

    /**
     * {@return a verifier for "the top one per X" questions (a per-group word and a superlative in the
     * question): the column the SQL partitions or groups by must not repeat in the result; a repeat means
     * more than one row per X}
     */
    public static ResultVerifier onePerGroup() {
        LastQuestion<Boolean> topPerGroup = new LastQuestion<>(
                q -> PER_GROUP.matcher(q).find() && SUPERLATIVE.matcher(q).find());
        return (question, sql, table) -> {
            if (table.rowCount() < 2 || !topPerGroup.of(question)) {
                return Optional.empty();
            }
            Matcher g = GROUPING.matcher(sql);
            Set<String> keys = new LinkedHashSet<>();
            while (g.find()) {
                String col = g.group(1).replaceAll("[\"`\\[\\]]", "");
                keys.add(col.substring(col.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT));
            }
            for (int c = 0; c < table.columns().size(); c++) {
                if (!keys.contains(table.columns().get(c).name().toLowerCase(Locale.ROOT))) {
                    continue;
                }
                Map<String, Integer> seen = new HashMap<>();
                for (List<Object> row : table.rows()) {
                    seen.merge(ResultEquivalence.valueKey(row.get(c)), 1, Integer::sum);
                }
                if (seen.size() < table.rowCount()) {
                    return Optional.of("the question asks for one result per " + table.columns().get(c).name()
                            + " but the result has " + table.rowCount() + " rows for " + seen.size() + " distinct "
                            + table.columns().get(c).name() + " values");
                }
            }
            return Optional.empty();
        };
    }
}
