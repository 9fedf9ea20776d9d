package io.clockagent.agent.internal.activecopy;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How the copies of the agent in one JVM keep to one active copy. Each copy lives in a class loader of its own, so
 * they share no object, and none should: whatever they shared, application code could reach too, and with it the
 * clock's write side. The active copy therefore claims a system property, which a later copy finds and leaves
 * alone, and a detach reaches it as a class load, which every registered transformer is shown. Thread-safe.
 */
public final class ActiveCopy {

    /** Holds the active copy's banner, so the service's own property dumps also say what is installed. */
    static final String PROPERTY = "clockagent.active";
    /** Loaded, never initialised, by a copy that asks the active one to detach; the active copy never loads it. */
    public static final String DETACH_SIGNAL = "io/clockagent/agent/internal/activecopy/DetachSignal";

    private static final long RELEASE_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private ActiveCopy() {
    }

    /** @return whether this copy is now the active one; false if another copy already is */
    public static boolean claim(String banner) {
        return System.getProperties().putIfAbsent(PROPERTY, banner) == null;
    }

    /** Gives up the claim made with this banner, and no other copy's. */
    public static void release(String banner) {
        System.getProperties().remove(PROPERTY, banner);
    }

    /** The active copy's banner, or null when no copy is active. */
    public static String active() {
        return System.getProperty(PROPERTY);
    }

    /** Whether {@code className}, being defined by {@code loader}, is another copy's request to detach. */
    public static boolean isDetachSignal(ClassLoader loader, String className) {
        return DETACH_SIGNAL.equals(className) && loader != null
                && loader.getClass() == ActiveCopy.class.getClassLoader().getClass()
                && loader != ActiveCopy.class.getClassLoader();
    }

    /**
     * Asks the active copy to detach and waits until it has: it gives up its claim last, after restoring the
     * original code.
     *
     * @return whether the claim was given up within {@code timeoutNanos}
     */
    public static boolean requestDetach(String banner, long timeoutNanos) throws ClassNotFoundException {
        Class.forName(DETACH_SIGNAL.replace('/', '.'), false, ActiveCopy.class.getClassLoader());
        long deadlineNanos = System.nanoTime() + timeoutNanos;
        while (banner.equals(active())) {
            if (System.nanoTime() - deadlineNanos >= 0) {
                return false;
            }
            LockSupport.parkNanos(RELEASE_POLL_NANOS);
        }
        return true;
    }
}
