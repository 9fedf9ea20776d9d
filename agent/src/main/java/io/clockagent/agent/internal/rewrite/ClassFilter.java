package io.clockagent.agent.internal.rewrite;

/**
 * The class filter that serves this JVM, as the report and the MBean tell it: the native library's C hook, which
 * rewrites from the start and counts in C, or the Java transformer, whose counts are the {@link RewriteCounters}'.
 * Read from any thread.
 */
public interface ClassFilter {

    /** Whether the C hook serves. */
    boolean isNative();

    /** {@code native}, or {@code java} with why the C hook does not serve, as the MBean's {@code ClassFilter} says. */
    String describe();

    /** Classes in scope the C hook checked; 0 for the Java transformer. */
    long classesScannedNatively();

    /** Classes the C hook rewrote (in a dry run: would have); 0 for the Java transformer. */
    long classesRewrittenNatively();

    /** What became of the classes of the clock methods in force so far. */
    ClockClasses clockClasses();
}
