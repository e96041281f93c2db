package dev.sqlagent.engine.trino;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlagent.execution.ErrorCategory;
import org.junit.jupiter.api.Test;

/**
 * The codes of Trino's limits ({@code io.trino.spi.StandardErrorCode} in 483: numbers read from the jar) are
 * resource limits or timeouts, never corrected; an error numbered among them that is no limit is not one. The
 * codes as the cluster raises them: {@code trino-tests}' {@code TrinoStatementCapsTest} and {@code TrinoSessionTest}.
 */
class TrinoErrorCodesTest {

    @Test
    void theCapsOfAQuestionsBudgetAreResourceLimitsNeverCorrected() {
        for (int code : new int[] {131_073, 131_079, 131_081}) { // GLOBAL, LOCAL memory; SCAN
            assertThat(TrinoErrors.ofCode(code)).as("code %d", code).isEqualTo(ErrorCategory.RESOURCE_LIMIT);
            assertThat(TrinoErrors.ofCode(code).correctable()).isFalse();
            assertThat(TrinoErrors.ofCode(code).environmental()).isTrue();
        }
        assertThat(TrinoErrors.ofCode(131_075)).isEqualTo(ErrorCategory.TIMEOUT); // EXCEEDED_TIME_LIMIT
        assertThat(TrinoErrors.ofCode(131_083)).isEqualTo(ErrorCategory.RESOURCE_LIMIT); // EXCEEDED_WRITE_LIMIT
    }

    @Test
    void anExternalErrorNumberedAmongTheLimitsIsNoLimit() {
        assertThat(TrinoErrors.ofCode(133_001)).isEqualTo(ErrorCategory.UNKNOWN); // UNSUPPORTED_TABLE_TYPE
    }
}
