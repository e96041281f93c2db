package dev.sqlagent.schema;

/**
 * Estimates how many tokens a model's tokenizer makes of a text, so that a prompt part can be kept
 * within a budget without shipping a tokenizer. A host with the real tokenizer can plug it in.
 */
@FunctionalInterface
public interface TokenEstimator {

    /**
     * Estimates the tokens of a text. Implementations must be thread-safe and fast: prompts are measured
     * part by part, on every question.
     *
     * @param text any text
     * @return the estimated number of tokens, never negative; 0 for an empty text
     */
    int estimate(CharSequence text);

    /**
     * The heuristic estimator, per script.
     *
     * <ul>
     *   <li>Each CJK character (Han, kana, Hangul, CJK and full-width punctuation) counts as one token.
     *       Byte-level BPE tokenizers of the GPT-4 generation spend about 1 to 1.3 tokens on a common
     *       Chinese character, the newer ones with large Chinese vocabularies (o200k, Qwen, DeepSeek)
     *       about 0.6 to 0.8; one per character is close for the first and errs on the safe side (too
     *       many) for the second, which is the side a budget wants.</li>
     *   <li>A run of Latin letters and digits counts one token per four characters, rounded up (the
     *       usual "four characters a token" of English, applied per word so short words cost one).</li>
     *   <li>Each other visible character (punctuation, operators, brackets, other scripts) counts as
     *       one token: schema text is dense in them and tokenizers rarely merge them.</li>
     *   <li>White space is free: tokenizers fold a leading space into the next token.</li>
     * </ul>
     *
     * @return the heuristic estimator (stateless, thread-safe)
     */
    static TokenEstimator heuristic() {
        return HeuristicTokenEstimator.INSTANCE;
    }
}
