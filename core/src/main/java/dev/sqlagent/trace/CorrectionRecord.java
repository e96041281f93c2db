package dev.sqlagent.trace;

import java.util.Objects;

/**
 * The single correction of a question: what failed, why, and what the model wrote instead.
 *
 * @param originalSql the SQL that failed
 * @param originalError the feedback given: the database's message, the guard's parse error or a
 *     verifier's finding
 * @param errorCategory the classified category of the failure (an {@code ErrorCategory} name, or
 *     {@code RESULT_ANOMALY} for a finding of the verifiers)
 * @param correctedSql the SQL the correction produced, or empty when it produced none
 * @param correctionReason the model's explanation of its fix, or empty when it gave none
 */
public record CorrectionRecord(String originalSql, String originalError, String errorCategory,
        String correctedSql, String correctionReason) {

    /**
     * Checks the parts.
     *
     * @param originalSql the SQL that failed
     * @param originalError the feedback given: the database's message, the guard's parse error or a
     *     verifier's finding
     * @param errorCategory the classified category of the failure (an {@code ErrorCategory} name, or
     *     {@code RESULT_ANOMALY} for a finding of the verifiers)
     * @param correctedSql the SQL the correction produced, or empty when it produced none
     * @param correctionReason the model's explanation of its fix, or empty when it gave none
     */
    public CorrectionRecord {
        Objects.requireNonNull(originalSql, "originalSql");
        Objects.requireNonNull(originalError, "originalError");
        Objects.requireNonNull(errorCategory, "errorCategory");
        Objects.requireNonNull(correctedSql, "correctedSql");
        Objects.requireNonNull(correctionReason, "correctionReason");
    }
}
