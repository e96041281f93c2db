package dev.sqlagent.engine;

import java.lang.Character.UnicodeScript;
import java.text.Normalizer;
import java.util.EnumSet;
import java.util.Set;

/**
 * Which characters a quoted identifier may hold beyond ASCII. Names in other scripts are real ({@code AS
 * "名前"}, CJK schemas), so letters, combining marks and digits of any script are accepted; what makes one
 * name pass for another is not: format characters (zero-width joiners, bidirectional controls), spaces and
 * punctuation beyond ASCII, private-use and unassigned code points, a name that Unicode's compatibility
 * normalisation (NFKC) changes (full-width {@code ｓａｌａｒｙ}, ligatures), and letters of scripts mixed in
 * a way no language writes (Latin with Cyrillic or Greek: {@code раssword}); Latin mixed with Han, kana or
 * Hangul is how Chinese, Japanese and Korean names are written and is accepted.
 */
final class QuotedNames {

    /** Scripts that are written mixed with each other (and with Latin) in one name. */
    private static final Set<UnicodeScript> MIXABLE = EnumSet.of(UnicodeScript.LATIN, UnicodeScript.HAN,
            UnicodeScript.HIRAGANA, UnicodeScript.KATAKANA, UnicodeScript.HANGUL, UnicodeScript.BOPOMOFO);

    private QuotedNames() {
    }

    /**
     * @param name the identifier's text between its quotes
     * @return why it is refused, or null when it is accepted
     */
    static String refusal(String name) {
        boolean ascii = true;
        Set<UnicodeScript> scripts = EnumSet.noneOf(UnicodeScript.class);
        for (int i = 0; i < name.length(); ) {
            int cp = name.codePointAt(i);
            i += Character.charCount(cp);
            if (cp <= 0x7e) {
                if (Character.isLetter(cp)) {
                    scripts.add(UnicodeScript.LATIN);
                }
                continue;
            }
            ascii = false;
            int type = Character.getType(cp);
            boolean letter = Character.isLetter(cp);
            boolean mark = type == Character.NON_SPACING_MARK || type == Character.COMBINING_SPACING_MARK;
            boolean digit = type == Character.DECIMAL_DIGIT_NUMBER;
            if (!(letter || mark || digit)) {
                return String.format("a quoted identifier contains U+%04X, which is no letter, mark or digit"
                        + " (invisible, control, space or look-alike characters are not allowed)", cp);
            }
            UnicodeScript script = UnicodeScript.of(cp);
            if (letter && script != UnicodeScript.COMMON && script != UnicodeScript.INHERITED) {
                scripts.add(script);
            }
        }
        if (ascii) {
            return null;
        }
        if (!Normalizer.normalize(name, Normalizer.Form.NFKC).equals(name)) {
            return "a quoted identifier is not in Unicode's normal form NFKC (full-width or compatibility"
                    + " characters that look like another name)";
        }
        if (scripts.size() > 1 && !MIXABLE.containsAll(scripts)) {
            return "a quoted identifier mixes the scripts " + scripts + " (look-alike names)";
        }
        return null;
    }
}
