package dev.sqlagent.cases;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * What every {@link FixStore} must do: give back what was put, replace on a second put, expire a fix
 * that was not used for the expiry time (and only then), by its clock.
 */
abstract class FixStoreContract {

    /** The expiry the suite works with. */
    static final Duration EXPIRY = Duration.ofHours(24);

    /** A clock moved by hand. */
    static final class ManualClock extends Clock {
        private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-12-01T10:00:00Z"));

        void advance(Duration d) {
            now.updateAndGet(i -> i.plus(d));
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    }

    final ManualClock clock = new ManualClock();

    /**
     * @param clock the clock of the store
     * @return a new, empty store expiring after {@link #EXPIRY}
     * @throws Exception if it cannot be made
     */
    abstract FixStore newStore(Clock clock) throws Exception;

    static FixStore.Key key(int n) {
        String hex = Integer.toHexString(n);
        return new FixStore.Key("0".repeat(64 - hex.length()) + hex, "COLUMN_NOT_FOUND", "abc123", "def456");
    }

    @Test
    void aFixPutIsFoundAndOthersAreNot() throws Exception {
        FixStore store = newStore(clock);
        store.put(key(1), "SELECT name FROM employees");

        assertThat(store.get(key(1))).contains("SELECT name FROM employees");
        assertThat(store.get(key(2))).isEmpty();
    }

    @Test
    void aSecondPutReplacesTheFix() throws Exception {
        FixStore store = newStore(clock);
        store.put(key(1), "SELECT name FROM employees");
        store.put(key(1), "SELECT e.name FROM employees e");

        assertThat(store.get(key(1))).contains("SELECT e.name FROM employees e");
    }

    @Test
    void aFixExpiresOnlyAfterTheExpiryWithoutUse() throws Exception {
        FixStore store = newStore(clock);
        store.put(key(1), "SELECT 1");
        store.put(key(2), "SELECT 2");

        clock.advance(EXPIRY.minusMinutes(1));
        assertThat(store.get(key(1))).as("used just before it expires").contains("SELECT 1");
        clock.advance(EXPIRY.minusMinutes(1));
        assertThat(store.get(key(1))).as("the use started its expiry again").contains("SELECT 1");
        assertThat(store.get(key(2))).as("never used since its put").isEmpty();
        clock.advance(EXPIRY.plusMinutes(1));
        assertThat(store.get(key(1))).isEmpty();
    }

    @Test
    void aFixPutAgainAfterExpiringIsFoundAgain() throws Exception {
        FixStore store = newStore(clock);
        store.put(key(1), "SELECT 1");
        clock.advance(EXPIRY.plusMinutes(1));
        assertThat(store.get(key(1))).isEmpty();

        store.put(key(1), "SELECT 1 + 0");
        assertThat(store.get(key(1))).contains("SELECT 1 + 0");
    }

    @Test
    void fixesKeepTheirTextExactly() throws Exception {
        FixStore store = newStore(clock);
        String fix = "SELECT name FROM employees WHERE title = 'Ça va ''bien''' -- ünïcödé\n  AND id > 0";
        store.put(key(7), fix);

        assertThat(store.get(key(7))).contains(fix);
    }
}
