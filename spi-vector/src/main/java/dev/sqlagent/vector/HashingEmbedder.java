package dev.sqlagent.vector;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * An embedder that needs no model: character bigrams for CJK text, words and word bigrams for Latin
 * text, each hashed (signed) into a fixed number of buckets, then L2-normalised. It finds near-duplicate
 * questions, not paraphrases. Deterministic and thread-safe.
 */
public final class HashingEmbedder implements Embedder {

    /** Default dimension. */
    public static final int DEFAULT_DIMENSION = 384;

    private final int dimension;

    private HashingEmbedder(int dimension) {
        this.dimension = dimension;
    }

    /** @return an embedder of {@link #DEFAULT_DIMENSION} dimensions */
    public static HashingEmbedder create() {
        return new HashingEmbedder(DEFAULT_DIMENSION);
    }

    /** @param dimension the number of buckets, at least 16  @return an embedder */
    public static HashingEmbedder withDimension(int dimension) {
        if (dimension < 16) {
            throw new IllegalArgumentException("dimension must be >= 16 but was " + dimension);
        }
        return new HashingEmbedder(dimension);
    }

    /** @return the vector dimension */
    public int dimension() {
        return dimension;
    }

    @Override
    public float[] embed(String text) {
        float[] v = new float[dimension];
        for (String feature : features(text)) {
            int h = murmurMix(feature);
            int bucket = Math.floorMod(h, dimension);
            v[bucket] += (h & 0x8000_0000) == 0 ? 1f : -1f;
        }
        return InMemoryVectorStore.normalise(v);
    }

    static List<String> features(String text) {
        String s = text.toLowerCase(Locale.ROOT);
        List<String> out = new ArrayList<>();
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        int prevCjk = -1;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            if (isCjk(cp)) {
                flush(word, words);
                out.add("c:" + new String(Character.toChars(cp)));
                if (prevCjk >= 0) {
                    out.add("b:" + new String(Character.toChars(prevCjk)) + new String(Character.toChars(cp)));
                }
                prevCjk = cp;
            } else {
                prevCjk = -1;
                if (Character.isLetterOrDigit(cp)) {
                    word.appendCodePoint(cp);
                } else {
                    flush(word, words);
                }
            }
        }
        flush(word, words);
        for (int i = 0; i < words.size(); i++) {
            out.add("w:" + words.get(i));
            if (i > 0) {
                out.add("p:" + words.get(i - 1) + ' ' + words.get(i));
            }
        }
        return out;
    }

    private static void flush(StringBuilder word, List<String> words) {
        if (word.length() > 0) {
            words.add(word.toString());
            word.setLength(0);
        }
    }

    private static boolean isCjk(int cp) {
        Character.UnicodeScript script = Character.UnicodeScript.of(cp);
        return script == Character.UnicodeScript.HAN || script == Character.UnicodeScript.HIRAGANA
                || script == Character.UnicodeScript.KATAKANA || script == Character.UnicodeScript.HANGUL;
    }

    private static int murmurMix(String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        int h = 0x9747b28c;
        for (byte b : bytes) {
            h ^= b & 0xff;
            h *= 0x5bd1e995;
            h ^= h >>> 15;
        }
        h ^= h >>> 13;
        h *= 0x5bd1e995;
        h ^= h >>> 15;
        return h;
    }
}
