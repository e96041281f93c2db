package dev.sqlagent.vector;

import java.text.Normalizer;
import java.util.Locale;

/**
 * An embedder that needs no model. Text is case-folded and NFKC-normalised (full-width letters and
 * digits become ASCII), then split into runs: CJK characters (Han, kana, Hangul) give character
 * unigrams, bigrams and trigrams; other letters and digits give words, and consecutive words give word
 * bigrams. Every feature is hashed (64-bit, the bucket and the sign from independent bits) into a fixed
 * number of buckets and the vector is L2-normalised.
 *
 * <p>It finds near-duplicate questions (the same words in nearly the same order, a changed number or
 * name), not paraphrases; use a model-backed embedder for those. Deterministic across runs and JVMs,
 * and thread-safe. A text without letters or digits (for example the empty string) embeds to the zero
 * vector, which is similar to nothing.
 */
public final class HashingEmbedder implements Embedder {

    /** Default dimension, the same as all-MiniLM-L6-v2's so that stores can switch embedders. */
    public static final int DEFAULT_DIMENSION = 384;

    private static final long SEED_UNIGRAM = 0x9E3779B97F4A7C15L;
    private static final long SEED_CJK_BIGRAM = 0xC2B2AE3D27D4EB4FL;
    private static final long SEED_CJK_TRIGRAM = 0x165667B19E3779F9L;
    private static final long SEED_WORD = 0xD6E8FEB86659FD93L;
    private static final long SEED_WORD_BIGRAM = 0xFF51AFD7ED558CCDL;

    private final int dimension;

    private HashingEmbedder(int dimension) {
        this.dimension = dimension;
    }

    /**
     * Creates an embedder of {@link #DEFAULT_DIMENSION} dimensions.
     *
     * @return the embedder
     */
    public static HashingEmbedder create() {
        return new HashingEmbedder(DEFAULT_DIMENSION);
    }

    /**
     * Creates an embedder of the given dimension.
     *
     * @param dimension the number of buckets, at least 16
     * @return the embedder
     * @throws IllegalArgumentException if the dimension is below 16
     */
    public static HashingEmbedder withDimension(int dimension) {
        if (dimension < 16) {
            throw new IllegalArgumentException("dimension must be >= 16 but was " + dimension);
        }
        return new HashingEmbedder(dimension);
    }

    /**
     * Returns the vector dimension.
     *
     * @return the dimension
     */
    @Override
    public int dimension() {
        return dimension;
    }

    /**
     * Embeds a text.
     *
     * @param text the text, never null
     * @return a unit vector, or the zero vector when the text has no letters or digits
     * @throws NullPointerException if the text is null
     */
    @Override
    public float[] embed(String text) {
        if (text == null) {
            throw new NullPointerException("text");
        }
        float[] v = new float[dimension];
        String s = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
        int[] cps = s.codePoints().toArray();
        long previousWord = 0;
        boolean havePreviousWord = false;
        int i = 0;
        while (i < cps.length) {
            int cp = cps[i];
            if (isCjk(cp)) {
                int start = i;
                while (i < cps.length && isCjk(cps[i])) {
                    i++;
                }
                addCjkRun(v, cps, start, i);
                // A CJK run separates Latin words: "订单 table" and "table" do not form a bigram.
                havePreviousWord = false;
            } else if (Character.isLetterOrDigit(cp)) {
                int start = i;
                while (i < cps.length && Character.isLetterOrDigit(cps[i]) && !isCjk(cps[i])) {
                    i++;
                }
                long word = hash(SEED_WORD, cps, start, i);
                add(v, word);
                if (havePreviousWord) {
                    add(v, mix(previousWord * 31 + word + SEED_WORD_BIGRAM));
                }
                previousWord = word;
                havePreviousWord = true;
            } else {
                i++;
            }
        }
        return VectorMath.normalise(v);
    }

    private void addCjkRun(float[] v, int[] cps, int from, int to) {
        for (int i = from; i < to; i++) {
            add(v, hash(SEED_UNIGRAM, cps, i, i + 1));
            if (i + 2 <= to) {
                add(v, hash(SEED_CJK_BIGRAM, cps, i, i + 2));
            }
            if (i + 3 <= to) {
                add(v, hash(SEED_CJK_TRIGRAM, cps, i, i + 3));
            }
        }
    }

    private void add(float[] v, long h) {
        int bucket = (int) Long.remainderUnsigned(h >>> 1, dimension);
        v[bucket] += (h & 1L) == 0 ? 1f : -1f;
    }

    private static long hash(long seed, int[] cps, int from, int to) {
        long h = seed;
        for (int i = from; i < to; i++) {
            h = mix(h ^ cps[i]) * 0x9E3779B97F4A7C15L;
        }
        return mix(h ^ (to - from));
    }

    /** The finaliser of SplitMix64: every input bit affects every output bit. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private static boolean isCjk(int cp) {
        Character.UnicodeScript script = Character.UnicodeScript.of(cp);
        return script == Character.UnicodeScript.HAN || script == Character.UnicodeScript.HIRAGANA
                || script == Character.UnicodeScript.KATAKANA || script == Character.UnicodeScript.HANGUL;
    }
}
