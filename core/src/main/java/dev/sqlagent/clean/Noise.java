package dev.sqlagent.clean;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Removes what is never an answer: reasoning blocks and the special tokens of chat templates. */
final class Noise {

    private static final List<String> REASONING_TAGS = List.of("thinking", "think", "reasoning");

    /** Special tokens after which the model stopped: the rest is another turn or garbage. */
    private static final Set<String> END_TOKENS = Set.of("eot_id", "im_end", "endoftext", "end", "eom_id",
            "end_of_text", "end▁of▁sentence", "end_of_sentence", "eos");

    private Noise() {
    }

    /** The text without its reasoning, and whether there was any. */
    record Stripped(String text, boolean hadReasoning) {
    }

    /**
     * Drops {@code <think>…</think>} (and {@code <thinking>}, {@code <reasoning>}) blocks. A closing tag
     * with no opening one (templates that put {@code <think>} in the prompt) drops everything before it.
     * An unclosed opening tag at the start is dropped with the tag only, keeping what follows (some
     * models never close it); an unclosed one after an answer drops the rest. One pass, linear.
     */
    static Stripped stripReasoning(String s) {
        int[] firstOpen = findTag(s, 0, false);
        int[] firstClose = findTag(s, 0, true);
        int i = 0;
        boolean had = false;
        if (firstClose != null && (firstOpen == null || firstClose[0] < firstOpen[0])) {
            i = firstClose[1];
            had = true;
        }
        StringBuilder out = new StringBuilder(s.length() - i);
        while (i < s.length()) {
            int[] open = findTag(s, i, false);
            if (open == null) {
                out.append(s, i, s.length());
                break;
            }
            had = true;
            out.append(s, i, open[0]);
            int[] close = findTag(s, open[1], true);
            if (close == null) {
                if (out.toString().isBlank()) {
                    out.setLength(0);
                    out.append(s, open[1], s.length());
                }
                break;
            }
            out.append('\n');
            i = close[1];
        }
        return new Stripped(out.toString(), had);
    }

    /** {@return {start, end} of the next reasoning tag from {@code from}, or null} */
    private static int[] findTag(String s, int from, boolean closing) {
        int i = from;
        while (true) {
            int lt = s.indexOf('<', i);
            if (lt < 0) {
                return null;
            }
            int p = lt + 1;
            if (closing) {
                if (p < s.length() && s.charAt(p) == '/') {
                    p++;
                } else {
                    i = lt + 1;
                    continue;
                }
            }
            for (String tag : REASONING_TAGS) {
                int end = p + tag.length();
                if (s.regionMatches(true, p, tag, 0, tag.length()) && end < s.length() && s.charAt(end) == '>') {
                    return new int[] {lt, end + 1};
                }
            }
            i = lt + 1;
        }
    }

    /**
     * Removes chat-template tokens ({@code <|im_start|>}, {@code <s>}, {@code [INST]}, …) and cuts the
     * text at the first end-of-sequence token ({@code </s>}, {@code <|eot_id|>}, {@code <|im_end|>},
     * {@code <|endoftext|>}, {@code <|end|>}, …) that follows some text.
     */
    static String stripSpecialTokens(String s) {
        int n = s.length();
        StringBuilder out = new StringBuilder(n);
        boolean seenText = false;
        int i = 0;
        while (i < n) {
            char c = s.charAt(i);
            if (c == '<' || c == '[') {
                int end = -1;
                boolean isEnd = false;
                if (c == '<' && i + 1 < n && (s.charAt(i + 1) == '|' || s.charAt(i + 1) == '｜')) {
                    char bar = s.charAt(i + 1);
                    int limit = Math.min(n - 1, i + 64);
                    for (int j = i + 2; j < limit; j++) {
                        char d = s.charAt(j);
                        if (d == bar && s.charAt(j + 1) == '>') {
                            end = j + 2;
                            isEnd = END_TOKENS.contains(s.substring(i + 2, j).toLowerCase(Locale.ROOT));
                            break;
                        }
                        if (isSpaceOrAngle(d)) {
                            break;
                        }
                    }
                } else if (s.startsWith("</s>", i) || s.startsWith("<eos>", i) || s.startsWith("<end_of_turn>", i)) {
                    end = s.indexOf('>', i) + 1;
                    isEnd = true;
                } else if (s.startsWith("<s>", i)) {
                    end = i + 3;
                } else if (s.startsWith("<start_of_turn>", i)) {
                    end = i + "<start_of_turn>".length();
                } else if (s.startsWith("[INST]", i) || s.startsWith("[/INST]", i)) {
                    end = s.indexOf(']', i) + 1;
                }
                if (end > i) {
                    if (isEnd && seenText) {
                        break;
                    }
                    out.append('\n');
                    i = end;
                    continue;
                }
            }
            if (!seenText && !Chars.isSpace(c)) {
                seenText = true;
            }
            out.append(c);
            i++;
        }
        return out.toString();
    }

    private static boolean isSpaceOrAngle(char c) {
        return Chars.isSpace(c) || c == '<' || c == '>';
    }
}
