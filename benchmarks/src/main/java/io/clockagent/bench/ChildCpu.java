package io.clockagent.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU time, user plus system, of all the child processes this JVM has waited for, as Linux accounts it in
 * {@code /proc/self/stat}. Taken before a launch and again after {@code waitFor()}, the difference is that one
 * child's CPU time, all its threads included. Other work on a shared machine inflates wall time far more than CPU
 * time, so the startup runner reports both. Resolution: one clock tick, 10 ms. Call from one thread at a time.
 */
final class ChildCpu {

    private static final Path OWN_STAT = Path.of("/proc/self/stat");
    /** USER_HZ, the unit of {@code /proc}'s times: 100 on every Linux architecture the JDK supports. */
    private static final long NANOS_PER_TICK = 10_000_000L;
    /** {@code cutime} and {@code cstime}: fields 16 and 17, counted from 1, of {@code /proc/self/stat}. */
    private static final int CUTIME_AFTER_COMMAND = 13;

    private ChildCpu() {
    }

    /** The total so far, or 0 where {@code /proc} is not there (the CPU column then reads 0). */
    static long reapedNanos() {
        String stat;
        try {
            stat = new String(Files.readAllBytes(OWN_STAT), StandardCharsets.US_ASCII);
        } catch (IOException | SecurityException notLinux) {
            return 0L;
        }
        // The command name, field 2, is in parentheses and may hold spaces: count fields after its closing one.
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        long ticks = Long.parseLong(fields[CUTIME_AFTER_COMMAND]) + Long.parseLong(fields[CUTIME_AFTER_COMMAND + 1]);
        return ticks * NANOS_PER_TICK;
    }
}
