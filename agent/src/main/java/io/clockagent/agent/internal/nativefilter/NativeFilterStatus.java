package io.clockagent.agent.internal.nativefilter;

import java.util.function.LongSupplier;

/**
 * Whether the native class filter has taken over from the Java transformer, what it has counted since, or why it did
 * not take over. Written once by the hand-over, read by the report and the MBean at any time.
 */
public final class NativeFilterStatus {

    /** Null until the native filter takes over. */
    private volatile LongSupplier scans;
    private volatile LongSupplier rewrites;
    /** Null unless the hand-over was refused. */
    private volatile String refusal;

    /**
     * The native filter counts the classes in scope, those it passes on to the Java transformer included, and the
     * classes it rewrites itself.
     */
    void tookOver(LongSupplier classesScanned, LongSupplier classesRewritten) {
        rewrites = classesRewritten;
        scans = classesScanned;
    }

    void refused(String why) {
        refusal = why;
    }

    public boolean hasTakenOver() {
        return scans != null;
    }

    /** Why the native filter did not take over, or null while it serves, is yet to start, or was not meant to. */
    public String refusal() {
        return refusal;
    }

    /** Classes in scope the native filter has seen; the Java transformer counts those it saw before the hand-over. */
    public long classesScanned() {
        LongSupplier counted = scans;
        return counted == null ? 0 : counted.getAsLong();
    }

    /** Classes the native filter rewrote itself; the Java transformer counts those it rewrote. */
    public long classesRewritten() {
        LongSupplier counted = rewrites;
        return counted == null ? 0 : counted.getAsLong();
    }
}
