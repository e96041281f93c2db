package dev.sqlagent.examples.cli;

import dev.sqlagent.execution.ResultTable;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints a result table for people, aligned like psql: a header, a rule, one line per row, numbers to the
 * right, {@code NULL} for null, wide (CJK) characters counted as two columns. A cell longer than
 * {@link #MAX_CELL} columns is cut with an ellipsis ({@code --json} has every value whole).
 */
final class TextTable {

    /** Display columns a cell may take. */
    static final int MAX_CELL = 80;

    private TextTable() {
    }

    static void print(PrintStream out, ResultTable t) {
        List<String> names = t.columnNames();
        int n = names.size();
        List<String[]> cells = new ArrayList<>();
        int[] width = new int[n];
        for (int j = 0; j < n; j++) {
            width[j] = width(cell(names.get(j)));
        }
        boolean[] numeric = new boolean[n];
        java.util.Arrays.fill(numeric, true);
        boolean[] seen = new boolean[n];
        for (List<Object> row : t.rows()) {
            String[] line = new String[n];
            for (int j = 0; j < n; j++) {
                Object v = row.get(j);
                line[j] = v == null ? "NULL" : cell(String.valueOf(v));
                width[j] = Math.max(width[j], width(line[j]));
                if (v != null) {
                    seen[j] = true;
                    numeric[j] &= v instanceof Number;
                }
            }
            cells.add(line);
        }
        StringBuilder header = new StringBuilder();
        StringBuilder rule = new StringBuilder();
        for (int j = 0; j < n; j++) {
            header.append(j > 0 ? " | " : " ").append(pad(cell(names.get(j)), width[j], false));
            rule.append(j > 0 ? "-+-" : "-").append("-".repeat(width[j]));
        }
        out.println(header.toString().stripTrailing());
        out.println(rule.append('-'));
        for (String[] line : cells) {
            StringBuilder sb = new StringBuilder();
            for (int j = 0; j < n; j++) {
                sb.append(j > 0 ? " | " : " ").append(pad(line[j], width[j], numeric[j] && seen[j]));
            }
            out.println(sb.toString().stripTrailing());
        }
        out.println("(" + t.rowCount() + (t.rowCount() == 1 ? " row" : " rows")
                + (t.truncated() ? ", cut at the row cap (--max-rows)" : "") + ")");
    }

    /** One line: control characters become spaces; cut at {@link #MAX_CELL} display columns. */
    static String cell(String s) {
        StringBuilder clean = new StringBuilder(s.length());
        s.codePoints().forEach(cp -> clean.appendCodePoint(Character.isISOControl(cp) ? ' ' : cp));
        String c = clean.toString();
        if (width(c) <= MAX_CELL) {
            return c;
        }
        StringBuilder sb = new StringBuilder();
        int w = 0;
        for (int i = 0; i < c.length(); ) {
            int cp = c.codePointAt(i);
            if (w + width(cp) > MAX_CELL - 1) {
                break;
            }
            sb.appendCodePoint(cp);
            w += width(cp);
            i += Character.charCount(cp);
        }
        return sb.append('…').toString();
    }

    private static String pad(String s, int width, boolean right) {
        String fill = " ".repeat(Math.max(0, width - width(s)));
        return right ? fill + s : s + fill;
    }

    static int width(String s) {
        int w = 0;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            w += width(cp);
            i += Character.charCount(cp);
        }
        return w;
    }

    /** East Asian wide and full-width characters take two columns of a terminal. */
    private static int width(int cp) {
        boolean wide = (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF && cp != 0x303F)
                || (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F)
                || (cp >= 0xFF00 && cp <= 0xFF60) || (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x20000 && cp <= 0x3FFFD);
        return wide ? 2 : 1;
    }
}
