package dev.sqlagent.llm.openai;

import java.net.http.HttpHeaders;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.function.DoubleSupplier;

/** How long to wait before the next attempt: exponential back-off with jitter, or what the server asks. */
final class Backoff {

    private final Duration initial;
    private final Duration max;
    private final DoubleSupplier jitter;

    /**
     * @param initial the base delay of the first retry
     * @param max the cap of a computed delay
     * @param jitter a source of numbers in [0, 1)
     */
    Backoff(Duration initial, Duration max, DoubleSupplier jitter) {
        this.initial = initial;
        this.max = max;
        this.jitter = jitter;
    }

    /**
     * The delay before retry number {@code retry} (1 for the first retry): the base doubles each time,
     * is capped at the maximum, and a random half of it is taken away ("equal jitter"), so that clients
     * failing together do not retry together.
     *
     * @param retry 1 for the first retry
     * @return a delay between half the capped base and the capped base
     */
    Duration delay(int retry) {
        long baseNanos = initial.toNanos();
        int doublings = Math.min(Math.max(retry - 1, 0), 40);
        for (int i = 0; i < doublings && baseNanos < max.toNanos(); i++) {
            baseNanos = baseNanos * 2;
        }
        baseNanos = Math.min(baseNanos, max.toNanos());
        double j = jitter.getAsDouble();
        if (!(j >= 0 && j < 1)) {
            j = 0.5;
        }
        return Duration.ofNanos((long) (baseNanos / 2.0 + baseNanos / 2.0 * j));
    }

    /**
     * Reads {@code retry-after-ms} (milliseconds, sent by OpenAI) or {@code Retry-After} (seconds or an
     * HTTP date).
     *
     * @param headers the response headers
     * @param clock the clock an HTTP date is measured against
     * @return the delay the server asks for (zero for a date in the past), or empty when it asks none or
     *     the value cannot be read
     */
    static Optional<Duration> retryAfter(HttpHeaders headers, Clock clock) {
        Optional<String> ms = headers.firstValue("retry-after-ms");
        if (ms.isPresent()) {
            try {
                double v = Double.parseDouble(ms.get().trim());
                if (v >= 0 && v < 1e12) {
                    return Optional.of(Duration.ofNanos((long) (v * 1_000_000)));
                }
            } catch (NumberFormatException e) {
                // fall through to Retry-After
            }
        }
        Optional<String> value = headers.firstValue("retry-after");
        if (value.isEmpty()) {
            return Optional.empty();
        }
        String v = value.get().trim();
        try {
            double seconds = Double.parseDouble(v);
            if (seconds >= 0 && seconds < 1e9) {
                return Optional.of(Duration.ofNanos((long) (seconds * 1_000_000_000L)));
            }
            return Optional.empty();
        } catch (NumberFormatException e) {
            // not a number: try an HTTP date
        }
        try {
            Instant at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            Duration d = Duration.between(clock.instant(), at);
            return Optional.of(d.isNegative() ? Duration.ZERO : d);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
