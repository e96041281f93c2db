package dev.sqlagent.engine.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The {@code SET SESSION} and {@code RESET SESSION} statements that move a Trino session from one set of caps
 * to the next: each property only when its value changes, and a byte cap no longer wanted reset to the
 * cluster's own (a pooled connection must not keep one question's cap for the next). On the cluster:
 * {@code trino-tests}' {@code TrinoStatementCapsTest}.
 */
class TrinoSessionStatementsTest {

    private static final Duration MINUTE = Duration.ofMinutes(1);

    @Test
    void aNewSessionGetsEveryCapItIsGivenAndNoReset() {
        assertThat(TrinoSession.statements(null, new TrinoSession.Limits(MINUTE, 10, 20))).containsExactly(
                "SET SESSION query_max_run_time = '60000ms'", "SET SESSION query_max_execution_time = '60000ms'",
                "SET SESSION query_max_scan_physical_bytes = '10B'", "SET SESSION query_max_memory = '20B'",
                "SET SESSION query_max_total_memory = '20B'");
        assertThat(TrinoSession.statements(null, new TrinoSession.Limits(MINUTE, 0, 0))).containsExactly(
                "SET SESSION query_max_run_time = '60000ms'", "SET SESSION query_max_execution_time = '60000ms'");
    }

    @Test
    void aSessionThatCarriesTheCapsAlreadyGetsNothing() {
        TrinoSession.Limits caps = new TrinoSession.Limits(MINUTE, 10, 20);
        assertThat(TrinoSession.statements(caps, new TrinoSession.Limits(Duration.ofSeconds(60), 10, 20))).isEmpty();
    }

    @Test
    void onlyWhatChangedIsSetAndACapNoLongerWantedIsReset() {
        TrinoSession.Limits before = new TrinoSession.Limits(MINUTE, 10, 20);
        assertThat(TrinoSession.statements(before, new TrinoSession.Limits(MINUTE, 0, 0))).containsExactly(
                "RESET SESSION query_max_scan_physical_bytes", "RESET SESSION query_max_memory",
                "RESET SESSION query_max_total_memory");
        assertThat(TrinoSession.statements(before, new TrinoSession.Limits(MINUTE, 10, 30))).containsExactly(
                "SET SESSION query_max_memory = '30B'", "SET SESSION query_max_total_memory = '30B'");
        assertThat(TrinoSession.statements(before, new TrinoSession.Limits(Duration.ofSeconds(2), 11, 20)))
                .containsExactly("SET SESSION query_max_run_time = '2000ms'",
                        "SET SESSION query_max_execution_time = '2000ms'",
                        "SET SESSION query_max_scan_physical_bytes = '11B'");
    }

    @Test
    void capsAreChecked() {
        assertThatThrownBy(() -> new TrinoSession.Limits(Duration.ZERO, 0, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TrinoSession.Limits(MINUTE, -1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TrinoSession.statements(null, null)).isInstanceOf(NullPointerException.class);
    }
}
