package dev.sqlagent.schema;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/** English singular and plural forms, good enough for table names. */
final class Words {

    private Words() {
    }

    /**
     * @param word a lower-case word
     * @return the word, its singular and its plural (each once, the word first)
     */
    static Set<String> forms(String word) {
        String w = word.toLowerCase(Locale.ROOT);
        Set<String> out = new LinkedHashSet<>();
        out.add(w);
        out.add(singular(w));
        out.add(plural(w));
        out.remove("");
        return out;
    }

    static String singular(String w) {
        if (w.endsWith("ies") && w.length() > 3) {
            return w.substring(0, w.length() - 3) + "y";
        }
        if (w.endsWith("sses") || w.endsWith("xes") || w.endsWith("ches") || w.endsWith("shes") || w.endsWith("zes")) {
            return w.substring(0, w.length() - 2);
        }
        if (w.endsWith("ss") || w.endsWith("us") || w.endsWith("is")) {
            return w;
        }
        if (w.endsWith("s") && w.length() > 1) {
            return w.substring(0, w.length() - 1);
        }
        return w;
    }

    static String plural(String w) {
        if (w.isEmpty()) {
            return w;
        }
        if (w.endsWith("y") && w.length() > 1 && "aeiou".indexOf(w.charAt(w.length() - 2)) < 0) {
            return w.substring(0, w.length() - 1) + "ies";
        }
        if (w.endsWith("s") || w.endsWith("x") || w.endsWith("ch") || w.endsWith("sh") || w.endsWith("z")) {
            return w + "es";
        }
        return w + "s";
    }
}
