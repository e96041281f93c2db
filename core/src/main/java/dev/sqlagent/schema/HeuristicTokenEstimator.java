package dev.sqlagent.schema;

/** The per-script estimate described at {@link TokenEstimator#heuristic()}. */
final class HeuristicTokenEstimator implements TokenEstimator {

    static final HeuristicTokenEstimator INSTANCE = new HeuristicTokenEstimator();

    private static final int CHARS_PER_LATIN_TOKEN = 4;

    private HeuristicTokenEstimator() {
    }

    @Override
    public int estimate(CharSequence text) {
        int tokens = 0;
        int run = 0;
        int i = 0;
        int n = text.length();
        while (i < n) {
            int cp = Character.codePointAt(text, i);
            i += Character.charCount(cp);
            if (isLatinWordChar(cp)) {
                run++;
                continue;
            }
            tokens += latinRun(run);
            run = 0;
            if (Character.isWhitespace(cp) || Character.isSpaceChar(cp)) {
                continue;
            }
            tokens++;
        }
        return tokens + latinRun(run);
    }

    private static int latinRun(int run) {
        return (run + CHARS_PER_LATIN_TOKEN - 1) / CHARS_PER_LATIN_TOKEN;
    }

    private static boolean isLatinWordChar(int cp) {
        if (cp < 0x80) {
            return Character.isLetterOrDigit(cp);
        }
        // accented Latin letters join the word they are in
        return Character.isLetter(cp) && Character.UnicodeScript.of(cp) == Character.UnicodeScript.LATIN;
    }
}
