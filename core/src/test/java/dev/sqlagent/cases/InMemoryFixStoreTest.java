package dev.sqlagent.cases;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The default in-memory store passes the fix store contract. */
class InMemoryFixStoreTest extends FixStoreContract {

    @Override
    FixStore newStore(Clock clock) {
        return FixStore.inMemory(100, EXPIRY, clock);
    }

    @Test
    void badSettingsAreRefusedByName() {
        assertThatThrownBy(() -> FixStore.inMemory(0, EXPIRY, clock)).hasMessage("maxSize must be > 0 but was 0");
        assertThatThrownBy(() -> FixStore.inMemory(1, Duration.ZERO, clock))
                .hasMessage("expiry must be positive but was PT0S");
    }

    @Test
    void aKeyWhoseHashIsNotAHashIsRefused() {
        assertThatThrownBy(() -> new FixStore.Key("SELECT * FROM t", "SYNTAX_ERROR", "a", "b"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("64 lowercase hex");
    }
}
