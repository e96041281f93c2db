package dev.sqlagent.verify;

import dev.sqlagent.execution.ResultTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Flags SQL that leaves out a number the question states: "older than 40", "in 2010", "top 3". A number
 * of the question (digits, with an optional fraction) must appear in the SQL as a number of its own,
 * inside a string literal or not ({@code '2010-01-01'} holds 2010); a whole number is also satisfied by
 * its neighbours, since "at least 3" is usually written {@code > 2} and "under 5" {@code <= 4}. Numbers
 * glued to letters
 * ({@code 3rd}, {@code A380}) are not taken from the question. Pure and thread-safe.
 *
 * <p>It cannot see numbers written as words ("three") and, rarely, flags a question that states a
 * number the SQL rightly expresses otherwise; its finding is a hint for
 * the choice among candidates and for the correction, not a proof.
 */
public final class QuestionNumbersVerifier implements ResultVerifier {

    private static final Pattern NUMBER = Pattern.compile("(?<![\\w.])\\d+(?:\\.\\d+)?(?![\\w.]|\\.\\d)");
    private static final QuestionNumbersVerifier INSTANCE = new QuestionNumbersVerifier();

    private QuestionNumbersVerifier() {
    }

    /** @return the verifier */
    public static QuestionNumbersVerifier create() {
        return INSTANCE;
    }

    /** The number itself, or for a whole number one next to it ("at least 3" is often {@code > 2}). */
    private static boolean usedIn(String sql, String n) {
        List<String> forms = new ArrayList<>(List.of(n));
        if (n.indexOf('.') < 0 && n.length() < 10) {
            long v = Long.parseLong(n);
            forms.add(Long.toString(v - 1));
            forms.add(Long.toString(v + 1));
        }
        for (String f : forms) {
            if (Pattern.compile("(?<![\\d.])" + Pattern.quote(f) + "(?!\\d)").matcher(sql).find()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Optional<String> check(String question, String sql, ResultTable table) {
        Objects.requireNonNull(question, "question");
        Objects.requireNonNull(sql, "sql");
        List<String> missing = new ArrayList<>();
        Matcher m = NUMBER.matcher(question);
        while (m.find()) {
            String n = m.group();
            if (!usedIn(sql, n) && !missing.contains(n)) {
                missing.add(n);
            }
        }
        if (missing.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("the question mentions " + String.join(", ", missing)
                + (missing.size() == 1 ? " but the SQL does not use it" : " but the SQL does not use them")
                + "; check the filter values");
    }
}
