package io.clockagent.demo;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The agent's ticker thread as seen from the application: found by its name, measured by its CPU time over an
 * interval the demo chooses, which the agent's MBean does not give. Immutable; safe to share.
 */
final class TickerThread {

    static final String NAME = "clock-agent-ticker";
    static final long NOT_MEASURED = -1L;

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final long threadId;

    private TickerThread(long threadId) {
        this.threadId = threadId;
    }

    /** The running ticker, or null when the agent is off (or its ticker is gone). */
    static TickerThread find() {
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (NAME.equals(thread.getName())) {
                return new TickerThread(thread.getId());
            }
        }
        return null;
    }

    /** The ticker's CPU time so far, or {@link #NOT_MEASURED} if the JVM cannot say or the thread has ended. */
    long cpuNanos() {
        if (!THREADS.isThreadCpuTimeSupported()) {
            return NOT_MEASURED;
        }
        long cpuNanos = THREADS.getThreadCpuTime(threadId);
        return cpuNanos < 0 ? NOT_MEASURED : cpuNanos;
    }

    boolean alive() {
        return THREADS.getThreadInfo(threadId) != null;
    }
}
