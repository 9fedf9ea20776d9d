package io.clockagent.agent.internal.caching;

/**
 * The CPU time of the whole JVM process, all its threads, from the kernel's process clock
 * ({@code CLOCK_PROCESS_CPUTIME_ID}) through the agent's native library, which binds {@link #nanos0} as it loads the
 * Java side. The JDK offers no such clock finer than the scheduler's tick (its management bean counts
 * {@code times()}' ticks), and a process clock read is a system call of a microsecond or two, so it is read a few
 * times a second at most. Where the native start did not load the library (the Java start, a platform the jar carries
 * no library for), unknown.
 */
public final class ProcessCpuTime {

    public static final long UNKNOWN = -1L;
    /** Whether the library bound the native; cleared at the first call it did not. */
    private static volatile boolean bound = true;

    private ProcessCpuTime() {
    }

    /** The process's CPU time so far in nanoseconds, or {@link #UNKNOWN}. */
    public static long nanos() {
        if (!bound) {
            return UNKNOWN;
        }
        try {
            long nanos = nanos0();
            return nanos < 0 ? UNKNOWN : nanos;
        } catch (UnsatisfiedLinkError unbound) {
            bound = false;
            return UNKNOWN;
        }
    }

    /** Bound by the native library: the process clock in nanoseconds, or -1 where the kernel cannot read it. */
    private static native long nanos0();
}
