package io.clockagent.agent.internal.caching;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The calling thread's CPU time, from Linux's scheduler statistics for it ({@code /proc/thread-self/schedstat}, in
 * nanoseconds): a file read of a few microseconds, without the management classes a {@code ThreadMXBean} would load
 * into the service. Elsewhere, or where {@code /proc} is not mounted, unknown.
 */
final class ThreadCpuTime {

    static final long UNKNOWN = -1L;
    private static final Path OWN_SCHEDSTAT = Path.of("/proc/thread-self/schedstat");

    private ThreadCpuTime() {
    }

    /** The calling thread's CPU time so far in nanoseconds, or {@link #UNKNOWN}. */
    static long currentThreadNanos() {
        try {
            String schedstat = Files.readString(OWN_SCHEDSTAT);
            int end = schedstat.indexOf(' ');
            return Long.parseLong(end < 0 ? schedstat.trim() : schedstat.substring(0, end));
        } catch (IOException | RuntimeException unreadable) {
            return UNKNOWN;
        }
    }
}
