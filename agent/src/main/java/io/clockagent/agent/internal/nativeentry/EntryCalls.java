package io.clockagent.agent.internal.nativeentry;

/**
 * The native start's C half ({@code agent/src/main/c/agent_entry.c}), as its Java half calls it. The C half binds these
 * natives as it loads this side, since the JVM would look for them in the agent jar's loader, which loaded no library.
 */
final class EntryCalls {

    private EntryCalls() {
    }

    /** Classes in scope the C hook checked since it was put in place. */
    static native long classesScanned();

    /** Classes the C hook rewrote (in a dry run: would have) since it was put in place. */
    static native long classesRewritten();

    /**
     * The clock methods in force (the options' library clocks, then the service's own) whose uses the C hook
     * redirected, by bit: bit {@code i} for the {@code i}-th, up to 64.
     */
    static native long clockMethodsRedirected();

    /** By the same index, the class each clock method's class loaded for after all, or null where it did not load. */
    static native String[] clockClassesLoadedFor();

    /**
     * Stops the C hook for good, so that no class is rewritten from here on, and retransforms every loaded class in
     * scope, which gives each class the JVM kept original bytes for its original code again.
     *
     * @return how many classes were retransformed
     */
    static native int restoreClasses();
}
