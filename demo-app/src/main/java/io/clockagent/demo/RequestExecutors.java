package io.clockagent.demo;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Chooses at run time where tasks run: one virtual thread per task on JDK 21 and later, a fixed pool of platform
 * threads before that. The module compiles for 17, so the virtual-thread factory is looked up, not linked.
 */
final class RequestExecutors {

    private static final MethodHandle NEW_VIRTUAL_THREAD_PER_TASK = lookUpVirtualThreadPerTask();

    private RequestExecutors() {
    }

    private static MethodHandle lookUpVirtualThreadPerTask() {
        try {
            MethodHandle factory = MethodHandles.publicLookup().findStatic(Executors.class,
                    "newVirtualThreadPerTaskExecutor", MethodType.methodType(ExecutorService.class));
            // On JDK 19 and 20 the method exists as a preview and fails unless previews are enabled: try it once.
            ExecutorService probe = (ExecutorService) factory.invokeExact();
            probe.shutdown();
            return factory;
        } catch (Throwable unavailable) {
            return null;
        }
    }

    static boolean virtualThreadsAvailable() {
        return NEW_VIRTUAL_THREAD_PER_TASK != null;
    }

    /** One new virtual thread per task; only when {@link #virtualThreadsAvailable()}. */
    static ExecutorService newVirtualThreadPerTask() {
        if (NEW_VIRTUAL_THREAD_PER_TASK == null) {
            throw new UnsupportedOperationException("no virtual threads on JDK " + Runtime.version().feature());
        }
        try {
            return (ExecutorService) NEW_VIRTUAL_THREAD_PER_TASK.invokeExact();
        } catch (RuntimeException | Error unchecked) {
            throw unchecked;
        } catch (Throwable checked) {
            throw new IllegalStateException(checked);
        }
    }

    /** Virtual threads when available, else a fixed pool of {@code poolThreads} named platform threads. */
    static ExecutorService forRequests(int poolThreads) {
        if (virtualThreadsAvailable()) {
            return newVirtualThreadPerTask();
        }
        AtomicInteger next = new AtomicInteger();
        ThreadFactory named = task -> {
            Thread thread = new Thread(task, "request-" + next.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
        return Executors.newFixedThreadPool(poolThreads, named);
    }

    /** Says which {@link #forRequests(int)} picks, for the startup line. */
    static String describe(int poolThreads) {
        return virtualThreadsAvailable()
                ? "virtual threads (JDK " + Runtime.version().feature() + ")"
                : "a fixed pool of " + poolThreads + " platform threads (JDK " + Runtime.version().feature()
                        + " has no virtual threads)";
    }
}
