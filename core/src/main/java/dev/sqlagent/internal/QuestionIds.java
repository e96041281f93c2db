package dev.sqlagent.internal;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Question ids: random version-4 UUIDs drawn from {@link ThreadLocalRandom}, not from
 * {@link UUID#randomUUID()}, whose JVM-wide {@code SecureRandom} every question would contend on. The ids
 * need to be unique, not unguessable.
 */
public final class QuestionIds {

    private QuestionIds() {
    }

    /** @return a new id, in the form of a UUID */
    public static String next() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        long most = (r.nextLong() & ~0xF000L) | 0x4000L;
        long least = (r.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(most, least).toString();
    }
}
