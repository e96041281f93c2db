package dev.sqlagent.clean;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import java.io.IOException;
import java.util.Locale;
import java.util.Set;

/**
 * Reads the SQL out of a JSON reply such as {@code {"sql": "SELECT …"}}: strictly with jackson-core
 * (lenient about what models get wrong: raw newlines, single quotes, trailing commas), then, if that
 * fails, by finding the value of the {@code "sql"} key by hand (models leave inner quotes unescaped).
 */
final class JsonSql {

    /** Keys whose value is the SQL, compared ignoring case. */
    private static final Set<String> SQL_KEYS = Set.of("sql", "query", "sql_query", "sqlquery", "final_sql",
            "sql_statement", "statement");

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS)
            .enable(JsonReadFeature.ALLOW_SINGLE_QUOTES)
            .enable(JsonReadFeature.ALLOW_TRAILING_COMMA)
            .enable(JsonReadFeature.ALLOW_BACKSLASH_ESCAPING_ANY_CHARACTER)
            .enable(JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES)
            .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
            .build();

    private static final int MAX_DEPTH = 3;

    private JsonSql() {
    }

    /** What the JSON step found. */
    record Found(Kind kind, String value) {
        enum Kind { NOT_JSON, SQL, PROBLEM }

        static final Found NOT_JSON = new Found(Kind.NOT_JSON, "");
    }

    /**
     * @param text a reply without fences and reasoning
     * @return NOT_JSON when the text neither starts with an object nor holds an {@code "sql"} key; SQL with
     *     the field's value; PROBLEM with a sentence when it is JSON without usable SQL
     */
    static Found find(String text) {
        int first = Chars.skipSpaces(text, 0, text.length());
        boolean startsObject = first < text.length() && text.charAt(first) == '{';
        int key = findSqlKey(text);
        if (!startsObject && key < 0) {
            return Found.NOT_JSON;
        }
        int brace = startsObject ? first : text.lastIndexOf('{', key);
        if (brace >= 0) {
            Holder h = new Holder();
            try (JsonParser p = FACTORY.createParser(text.substring(brace))) {
                if (p.nextToken() == JsonToken.START_OBJECT) {
                    readObject(p, h, 0);
                    if (h.sql != null) {
                        return h.sql.isBlank() ? new Found(Found.Kind.PROBLEM, "the JSON reply's SQL field is empty")
                                : new Found(Found.Kind.SQL, h.sql);
                    }
                    if (h.sqlNull) {
                        return new Found(Found.Kind.PROBLEM, "the JSON reply's SQL field is null");
                    }
                    if (h.sqlLike != null) {
                        return new Found(Found.Kind.SQL, h.sqlLike);
                    }
                    if (startsObject && key < 0) {
                        return new Found(Found.Kind.PROBLEM, "the reply is a JSON object without an \"sql\" field");
                    }
                }
            } catch (IOException | RuntimeException e) {
                // not valid JSON even for the lenient parser: read the value by hand below
            }
        }
        if (key < 0) {
            return Found.NOT_JSON;
        }
        return byHand(text, key);
    }

    private static final class Holder {
        String sql;
        boolean sqlNull;
        String sqlLike;
    }

    private static void readObject(JsonParser p, Holder h, int depth) throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken t = p.nextToken();
            boolean sqlKey = SQL_KEYS.contains(name.toLowerCase(Locale.ROOT));
            if (t == JsonToken.VALUE_STRING) {
                String v = p.getText();
                if (sqlKey && h.sql == null) {
                    h.sql = v;
                } else if (h.sqlLike == null && startsWithSqlVerb(v)) {
                    h.sqlLike = v;
                }
            } else if (t == JsonToken.VALUE_NULL) {
                h.sqlNull |= sqlKey;
            } else if (t == JsonToken.START_OBJECT && depth < MAX_DEPTH) {
                readObject(p, h, depth + 1);
            } else {
                p.skipChildren();
            }
        }
    }

    /** Whether a value starts with SELECT or WITH (any case, after spaces and opening parentheses). */
    static boolean startsWithSqlVerb(String v) {
        int i = 0;
        while (i < v.length() && (Chars.isSpace(v.charAt(i)) || v.charAt(i) == '(')) {
            i++;
        }
        String w = Chars.upperWordAt(v, i);
        return w.equals("SELECT") || w.equals("WITH");
    }

    /** {@return the index of the quote opening an SQL key followed by a colon, or -1} */
    private static int findSqlKey(String text) {
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char q = text.charAt(i);
            if (q != '"' && q != '\'') {
                continue;
            }
            int e = i + 1;
            while (e < n && e - i <= 16 && (Chars.isAsciiLetter(text.charAt(e)) || text.charAt(e) == '_')) {
                e++;
            }
            if (e < n && e > i + 1 && text.charAt(e) == q
                    && SQL_KEYS.contains(text.substring(i + 1, e).toLowerCase(Locale.ROOT))) {
                int c = Chars.skipSpaces(text, e + 1, e + 64);
                if (c < n && text.charAt(c) == ':') {
                    return i;
                }
            }
        }
        return -1;
    }

    /** The value after {@code "sql":}, ending at the quote that is followed by {@code ,"…"} or {@code }}. */
    private static Found byHand(String text, int key) {
        int n = text.length();
        int colon = text.indexOf(':', key);
        int v = Chars.skipSpaces(text, colon + 1, n);
        if (v >= n || (text.charAt(v) != '"' && text.charAt(v) != '\'')) {
            return new Found(Found.Kind.PROBLEM, "the JSON reply's SQL field is not a string");
        }
        char q = text.charAt(v);
        for (int i = v + 1; i < n; i++) {
            char c = text.charAt(i);
            if (c == '\\') {
                i++;
                continue;
            }
            if (c != q) {
                continue;
            }
            int after = Chars.skipSpaces(text, i + 1, n);
            boolean ends = after >= n || text.charAt(after) == '}';
            if (!ends && text.charAt(after) == ',') {
                int next = Chars.skipSpaces(text, after + 1, n);
                ends = next >= n || text.charAt(next) == '"' || text.charAt(next) == '\'' || text.charAt(next) == '}';
            }
            if (ends) {
                String value = unescape(text.substring(v + 1, i));
                return value.isBlank() ? new Found(Found.Kind.PROBLEM, "the JSON reply's SQL field is empty")
                        : new Found(Found.Kind.SQL, value);
            }
        }
        return new Found(Found.Kind.PROBLEM, "the JSON reply is cut off before its SQL value ends");
    }

    private static String unescape(String s) {
        if (s.indexOf('\\') < 0) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\' || i + 1 >= s.length()) {
                sb.append(c);
                continue;
            }
            char e = s.charAt(++i);
            switch (e) {
                case 'n': sb.append('\n'); break;
                case 't': sb.append('\t'); break;
                case 'r': sb.append('\r'); break;
                case 'b': sb.append('\b'); break;
                case 'f': sb.append('\f'); break;
                case 'u':
                    if (isHex(s, i + 1)) {
                        sb.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
                        i += 4;
                    } else {
                        sb.append('u');
                    }
                    break;
                default: sb.append(e);
            }
        }
        return sb.toString();
    }

    private static boolean isHex(String s, int from) {
        if (from + 4 > s.length()) {
            return false;
        }
        for (int i = from; i < from + 4; i++) {
            if (Character.digit(s.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }
}
