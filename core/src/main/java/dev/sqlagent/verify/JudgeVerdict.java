package dev.sqlagent.verify;

import java.util.List;
import java.util.Objects;

/**
 * What the judge model said of a result.
 *
 * @param correct whether the SQL answers the question
 * @param score 0 to 100, how sure and how good
 * @param errorTags what kind of fix is needed, from a fixed vocabulary
 * @param repairTask what to change, in one sentence, or empty
 * @param comment the judge's remark, or empty
 * @param advice how to fix it, or empty
 */
public record JudgeVerdict(boolean correct, int score, List<Tag> errorTags, String repairTask, String comment,
        String advice) {

    /** The fixed vocabulary of error tags. */
    public enum Tag {
        /** A column name must change. */
        COLUMN_NAME_FIX,
        /** A table name must change. */
        TABLE_NAME_FIX,
        /** A keyword is misspelt or misplaced. */
        SYNTAX_FIX_KEYWORD_TYPO,
        /** A WHERE/HAVING condition is wrong. */
        FILTER_CONDITION_FIX,
        /** An aggregate or its grouping is wrong. */
        AGGREGATION_FIX,
        /** A join is wrong or missing. */
        JOIN_FIX,
        /** Anything else. */
        OTHER;

        /**
         * Reads a tag the judge wrote, whatever its case and surrounding white space.
         *
         * @param text a tag as the model wrote it
         * @return the tag, {@link #OTHER} when unknown
         */
        public static Tag parse(String text) {
            try {
                return valueOf(text.trim().toUpperCase(java.util.Locale.ROOT));
            } catch (IllegalArgumentException e) {
                return OTHER;
            }
        }
    }

    /**
     * Checks and copies the parts; clamps nothing: a score outside 0–100 is refused.
     *
     * @param correct whether the SQL answers the question
     * @param score 0 to 100, how sure and how good
     * @param errorTags what kind of fix is needed, from a fixed vocabulary
     * @param repairTask what to change, in one sentence, or empty
     * @param comment the judge's remark, or empty
     * @param advice how to fix it, or empty
     */
    public JudgeVerdict {
        if (score < 0 || score > 100) {
            throw new IllegalArgumentException("score must be in [0, 100] but was " + score);
        }
        errorTags = List.copyOf(errorTags);
        Objects.requireNonNull(repairTask, "repairTask");
        Objects.requireNonNull(comment, "comment");
        Objects.requireNonNull(advice, "advice");
    }

    /** {@return the feedback to give the correction: advice, repair task and tags} */
    public String feedback() {
        StringBuilder sb = new StringBuilder("a reviewer judged the result incorrect");
        if (!comment.isEmpty()) {
            sb.append(": ").append(comment);
        }
        if (!repairTask.isEmpty()) {
            sb.append("; repair: ").append(repairTask);
        }
        if (!advice.isEmpty()) {
            sb.append("; advice: ").append(advice);
        }
        if (!errorTags.isEmpty()) {
            sb.append(" ").append(errorTags);
        }
        return sb.toString();
    }
}
