package dev.sqlagent.clean;

import java.util.Locale;

/**
 * Tells a line of explanation from a line of SQL. It errs towards "SQL": a line it cannot place is
 * kept, so that the guard sees it. Looks at the first words of a line only, so it is linear.
 */
final class Prose {

    private static final int MAX_LOOK = 240;

    private Prose() {
    }

    /**
     * @param t the text
     * @param from the start of a line (leading spaces allowed)
     * @return whether the line is explanation (English or Chinese prose, a markdown marker, a closing tag)
     */
    static boolean isProseLine(String t, int from) {
        int n = t.length();
        int i = from;
        while (i < n && Chars.isBlankLineChar(t.charAt(i))) {
            i++;
        }
        if (i >= n || t.charAt(i) == '\n') {
            return false;
        }
        char c = t.charAt(i);
        char d = i + 1 < n ? t.charAt(i + 1) : '\n';
        if (t.startsWith("```", i) || t.startsWith("~~~", i) || t.startsWith("</", i) || t.startsWith("<|", i)
                || t.startsWith("**", i) || t.startsWith("##", i) || t.startsWith("---", i)) {
            return true;
        }
        if ((c == '|' && d != '|') || (c == '>' && d == ' ')) {
            return true; // a markdown table or quote
        }
        if ((c == '-' || c == '*' || c == '•') && d == ' ' && i + 2 < n && (Character.isLetter(t.charAt(i + 2))
                || t.charAt(i + 2) == '`' || t.charAt(i + 2) == '*')) {
            return true; // a bullet
        }
        if (c >= '0' && c <= '9') {
            int j = i;
            while (j < n && j - i < 3 && Character.isDigit(t.charAt(j))) {
                j++;
            }
            return j + 2 < n && (t.charAt(j) == '.' || t.charAt(j) == ')') && t.charAt(j + 1) == ' '
                    && Character.isLetter(t.charAt(j + 2)); // "1. The query…"
        }
        if (Chars.isCjk(c)) {
            return cjkProse(t, i);
        }
        if (Chars.isAsciiLetter(c)) {
            return englishProse(t, i);
        }
        return false;
    }

    /** Chinese or Japanese: CJK punctuation on the line, or a run of at least four CJK characters. */
    private static boolean cjkProse(String t, int i) {
        int n = Math.min(t.length(), i + MAX_LOOK);
        int run = 0;
        boolean inRun = true;
        for (int j = i; j < n; j++) {
            char c = t.charAt(j);
            if (c == '\n') {
                break;
            }
            if (Chars.isCjkPunctuation(c)) {
                return true;
            }
            if (inRun && Chars.isCjk(c)) {
                run++;
            } else {
                inRun = false;
            }
        }
        return run >= 4;
    }

    /**
     * English: a capitalised word and two more plain words ("This query joins…", "In this query…"), a
     * capitalised label ("Explanation:", "NOTE:"), or four plain lower-case words. The first word may be
     * an SQL keyword only when capitalised (SQL keywords are written upper- or lower-case).
     */
    private static boolean englishProse(String t, int i) {
        int n = t.length();
        String[] words = new String[4];
        int count = 0;
        int p = i;
        char afterFirst = '\n';
        while (count < 4 && p < n) {
            int e = p;
            while (e < n && e - p <= 40 && (Chars.isAsciiLetter(t.charAt(e)) || t.charAt(e) == '\''
                    || t.charAt(e) == '’')) {
                e++;
            }
            if (e == p || e - p > 40) {
                break;
            }
            words[count++] = t.substring(p, e);
            char after = e < n ? t.charAt(e) : '\n';
            if (count == 1) {
                afterFirst = after;
            }
            if (after != ' ') {
                break;
            }
            p = e + 1;
        }
        if (count == 0) {
            return false;
        }
        String w1 = words[0];
        boolean upper = w1.length() > 1 && w1.equals(w1.toUpperCase(Locale.ROOT));
        boolean lower = w1.equals(w1.toLowerCase(Locale.ROOT));
        boolean title = !upper && !lower && Character.isUpperCase(w1.charAt(0))
                && w1.substring(1).equals(w1.substring(1).toLowerCase(Locale.ROOT));
        boolean label = afterFirst == ':' && !(w1.length() + i + 1 < n && t.charAt(i + w1.length() + 1) == ':');
        if (upper) {
            return label && !isKeyword(w1);
        }
        if (title && label) {
            return true;
        }
        if (count < 2 || (lower && isKeyword(w1)) || !(title || lower)) {
            return false;
        }
        if (!plain(words[1])) {
            return false;
        }
        if (title) {
            return (count >= 3 && plain(words[2])) || endsLikeSentence(t, i);
        }
        return count >= 4 && plain(words[2]) && plain(words[3]);
    }

    /** A lower-case word that is not an SQL keyword. */
    private static boolean plain(String w) {
        return w != null && w.equals(w.toLowerCase(Locale.ROOT)) && !isKeyword(w);
    }

    private static boolean isKeyword(String w) {
        return Chars.SQL_WORDS.contains(w.toUpperCase(Locale.ROOT));
    }

    private static boolean endsLikeSentence(String t, int i) {
        int n = Math.min(t.length(), i + MAX_LOOK);
        int j = i;
        while (j < n && t.charAt(j) != '\n') {
            j++;
        }
        if (j == n && n < t.length()) {
            return false;
        }
        while (j > i && Chars.isSpace(t.charAt(j - 1))) {
            j--;
        }
        if (j == i) {
            return false;
        }
        char last = t.charAt(j - 1);
        return last == '.' || last == '!' || last == '?' || last == ':';
    }
}
