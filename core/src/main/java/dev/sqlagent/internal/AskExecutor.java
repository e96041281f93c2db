package dev.sqlagent.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The executor an agent owns for {@code askAsync} when the host gives none. A question blocks on the model
 * and the database for most of its time, so the executor is sized for blocking work:
 * <ul>
 *   <li>on a JDK with virtual threads (21 and later), one virtual thread per question;</li>
 *   <li>before that, a pool of {@value #PLATFORM_THREADS} daemon platform threads that time out when
 *       idle, with an unbounded queue.</li>
 * </ul>
 * The virtual-thread factory is found through {@link MethodHandles#publicLookup()}: a public method of
 * {@code java.base}, looked up by its signature, with no {@code java.lang.reflect} and no access checks
 * suppressed, so it works on the module path. The library targets Java 17, where the method does not
 * exist at compile time; a multi-release jar would need a JDK 21 to build, which the project does not
 * require.
 */
public final class AskExecutor {

    /** Platform threads of the pool used where the JDK has no virtual threads. */
    public static final int PLATFORM_THREADS = 48;

    private static final MethodHandle VIRTUAL = virtualFactory();

    private AskExecutor() {
    }

    /** @return whether this JDK gives virtual threads */
    public static boolean virtualThreads() {
        return VIRTUAL != null;
    }

    /** @return a new executor for questions, owned by the caller, who must shut it down */
    public static ExecutorService create() {
        if (VIRTUAL != null) {
            try {
                return (ExecutorService) VIRTUAL.invokeExact();
            } catch (Throwable e) {
                // fall through to platform threads: the lookup succeeded, so this is not expected
            }
        }
        ThreadPoolExecutor pool = new ThreadPoolExecutor(PLATFORM_THREADS, PLATFORM_THREADS, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), LibraryThreads.daemons("ask"));
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    private static MethodHandle virtualFactory() {
        if (Runtime.version().feature() < 21) {
            return null;
        }
        try {
            return MethodHandles.publicLookup().findStatic(Executors.class, "newVirtualThreadPerTaskExecutor",
                    MethodType.methodType(ExecutorService.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;
        }
    }
}
