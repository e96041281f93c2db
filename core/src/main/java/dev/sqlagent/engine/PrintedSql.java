package dev.sqlagent.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splits the SQL an engine prints back from its own plan (MariaDB's rewritten query, H2's plan, the
 * expressions of a PostgreSQL plan) into tokens. The engine prints in one fixed style, so this reads only
 * that style: one identifier quote, strings with doubled quotes (and backslash escapes where the engine
 * uses them), nested block comments (skipped), words, numbers, placeholders and punctuation. Dotted names
 * are joined into one {@link Token} of kind {@link Kind#NAME} holding their parts.
 */
public final class PrintedSql {

    /** Token kinds. */
    public enum Kind {
        /** A possibly dotted name; {@link Token#parts} holds its parts, {@link Token#quoted} which were quoted. */
        NAME,
        /** A string literal. */
        STRING,
        /** A number. */
        NUMBER,
        /** A placeholder ({@code ?1}, {@code $1}, {@code ?}). */
        PARAM,
        /** Any other character, or {@code ::}. */
        PUNCT,
        /** A marker the optimizer prints in angle brackets ({@code <cache>}, {@code <temporary table>}), text inside. */
        MARKER
    }

    /**
     * One token.
     *
     * @param kind its kind
     * @param text the punctuation, or the first part of a name, as printed (unquoted)
     * @param parts the parts of a name, unquoted
     * @param quoted for each part, whether it was quoted
     */
    public record Token(Kind kind, String text, List<String> parts, List<Boolean> quoted) {
        public boolean is(String punct) {
            return kind == Kind.PUNCT && text.equals(punct);
        }

        /** {@return whether this is one unquoted word, equal to {@code word} ignoring case} */
        public boolean isWord(String word) {
            return kind == Kind.NAME && parts.size() == 1 && !quoted.get(0) && text.equalsIgnoreCase(word);
        }

        /** {@return whether this is a name whose parts are all quoted} */
        public boolean allQuoted() {
            return kind == Kind.NAME && !quoted.contains(Boolean.FALSE);
        }

        /** {@return the last part lower case} */
        public String last() {
            return parts.get(parts.size() - 1).toLowerCase(Locale.ROOT);
        }
    }

    private final String s;
    private final char identQuote;
    private final boolean backslashEscapes;
    private final boolean markers;
    private int i;

    private PrintedSql(String s, char identQuote, boolean backslashEscapes, boolean markers) {
        this.s = s;
        this.identQuote = identQuote;
        this.backslashEscapes = backslashEscapes;
        this.markers = markers;
    }

    /**
     * @param text printed SQL
     * @param identQuote the engine's identifier quote ({@code "} or {@code `})
     * @param backslashEscapes whether the engine escapes in strings with backslashes
     * @return the tokens
     * @throws PlanReader.PlanNotUnderstood if a string, identifier or comment is not closed
     */
    public static List<Token> tokens(String text, char identQuote, boolean backslashEscapes) {
        return new PrintedSql(text, identQuote, backslashEscapes, false).all();
    }

    /**
     * As {@link #tokens(String, char, boolean)}, reading a {@code <} directly followed by a letter, up to the
     * next {@code >}, as one {@link Kind#MARKER} (MariaDB prints its optimizer's wrappers so, and its
     * comparisons with spaces around).
     *
     * @param text printed SQL
     * @param identQuote the engine's identifier quote
     * @param backslashEscapes whether the engine escapes in strings with backslashes
     * @return the tokens
     * @throws PlanReader.PlanNotUnderstood if a string, identifier or comment is not closed
     */
    public static List<Token> tokensWithMarkers(String text, char identQuote, boolean backslashEscapes) {
        return new PrintedSql(text, identQuote, backslashEscapes, true).all();
    }

    private List<Token> all() {
        List<Token> out = new ArrayList<>();
        while (true) {
            skipSpaceAndComments();
            if (i >= s.length()) {
                return out;
            }
            char c = s.charAt(i);
            if (markers && c == '<' && i + 1 < s.length() && isWordStart(s.charAt(i + 1))) {
                int end = i + 1;
                while (end < s.length() && (isWordPart(s.charAt(end)) || s.charAt(end) == ' ')) {
                    end++;
                }
                if (end < s.length() && s.charAt(end) == '>') {
                    out.add(new Token(Kind.MARKER, s.substring(i + 1, end), List.of(), List.of()));
                    i = end + 1;
                    continue;
                }
            }
            if (c == '\'') {
                i = endOfQuoted(i, '\'', backslashEscapes);
                out.add(new Token(Kind.STRING, "'", List.of(), List.of()));
            } else if (c == identQuote || isWordStart(c)) {
                out.add(name());
            } else if (Character.isDigit(c) || c == '.' && i + 1 < s.length() && Character.isDigit(s.charAt(i + 1))) {
                int start = i;
                while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '.'
                        || (s.charAt(i) == '+' || s.charAt(i) == '-') && (s.charAt(i - 1) == 'e' || s.charAt(i - 1) == 'E'))) {
                    i++;
                }
                out.add(new Token(Kind.NUMBER, s.substring(start, i), List.of(), List.of()));
            } else if ((c == '?' || c == '$') && i + 1 < s.length() && Character.isDigit(s.charAt(i + 1)) || c == '?') {
                int start = i++;
                while (i < s.length() && Character.isDigit(s.charAt(i))) {
                    i++;
                }
                out.add(new Token(Kind.PARAM, s.substring(start, i), List.of(), List.of()));
            } else if (c == ':' && i + 1 < s.length() && s.charAt(i + 1) == ':') {
                i += 2;
                out.add(new Token(Kind.PUNCT, "::", List.of(), List.of()));
            } else {
                i++;
                out.add(new Token(Kind.PUNCT, String.valueOf(c), List.of(), List.of()));
            }
        }
    }

    private Token name() {
        List<String> parts = new ArrayList<>();
        List<Boolean> quoted = new ArrayList<>();
        while (true) {
            char c = s.charAt(i);
            if (c == identQuote) {
                int end = endOfQuoted(i, identQuote, false);
                String q = String.valueOf(identQuote);
                parts.add(s.substring(i + 1, end - 1).replace(q + q, q));
                quoted.add(true);
                i = end;
            } else {
                int start = i;
                while (i < s.length() && isWordPart(s.charAt(i))) {
                    i++;
                }
                parts.add(s.substring(start, i));
                quoted.add(false);
            }
            if (i + 1 < s.length() && s.charAt(i) == '.'
                    && (s.charAt(i + 1) == identQuote || isWordStart(s.charAt(i + 1)))) {
                i++;
                continue;
            }
            return new Token(Kind.NAME, parts.get(0), List.copyOf(parts), List.copyOf(quoted));
        }
    }

    private int endOfQuoted(int start, char quote, boolean backslash) {
        int j = start + 1;
        while (j < s.length()) {
            char c = s.charAt(j);
            if (backslash && c == '\\') {
                j += 2;
                continue;
            }
            if (c == quote) {
                if (j + 1 < s.length() && s.charAt(j + 1) == quote) {
                    j += 2;
                    continue;
                }
                return j + 1;
            }
            j++;
        }
        throw new PlanReader.PlanNotUnderstood("unclosed " + quote + " in the engine's printed SQL");
    }

    private void skipSpaceAndComments() {
        while (i < s.length()) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '/' && i + 1 < s.length() && s.charAt(i + 1) == '*') {
                int depth = 0;
                while (true) {
                    if (i + 1 >= s.length()) {
                        throw new PlanReader.PlanNotUnderstood("unclosed comment in the engine's printed SQL");
                    }
                    if (s.charAt(i) == '/' && s.charAt(i + 1) == '*') {
                        depth++;
                        i += 2;
                    } else if (s.charAt(i) == '*' && s.charAt(i + 1) == '/') {
                        depth--;
                        i += 2;
                        if (depth == 0) {
                            break;
                        }
                    } else if (s.charAt(i) == '\'') {
                        i = endOfQuoted(i, '\'', backslashEscapes);
                    } else {
                        i++;
                    }
                }
            } else if (c == '-' && i + 1 < s.length() && s.charAt(i + 1) == '-') {
                while (i < s.length() && s.charAt(i) != '\n') {
                    i++;
                }
            } else {
                return;
            }
        }
    }

    /**
     * @param name an identifier
     * @param quote the engine's identifier quote
     * @return the name as an engine that folds to lower case prints it: bare when it is a lower-case word,
     *     else quoted (a keyword printed quoted is not recognised, so compares as different)
     */
    public static String quoteIfNeeded(String name, char quote) {
        boolean plain = !name.isEmpty() && (name.charAt(0) == '_' || name.charAt(0) >= 'a' && name.charAt(0) <= 'z');
        for (int k = 0; k < name.length() && plain; k++) {
            char c = name.charAt(k);
            plain = c == '_' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '$';
        }
        String q = String.valueOf(quote);
        return plain ? name : q + name.replace(q, q + q) + q;
    }

    private static boolean isWordStart(char c) {
        return Character.isLetter(c) || c == '_';
    }

    private static boolean isWordPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$' || c == '#';
    }
}
