package io.clockagent.agent.internal.nativefilter;

/**
 * Whether the native class filter has taken over from the Java transformer, what it has counted since, or why it did
 * not take over. Written once by the hand-over, read by the report and the MBean at any time.
 */
public final class NativeFilterStatus {

    /** The library counts over its whole life, across copies of the agent; this copy reports its own share. */
    private long scannedBefore;
    private long rewrittenBefore;
    /** Written after the counts above, which it publishes. */
    private volatile boolean tookOver;
    /** Null unless the hand-over was refused. */
    private volatile String refusal;

    /**
     * The status of the {@code -agentpath} entry, whose C hook filters and rewrites from the first class: the counts
     * are the hook's, all of them its own, read through {@link LibraryCalls}, whose counting natives that entry binds.
     */
    public static NativeFilterStatus servingFromTheStart() {
        NativeFilterStatus status = new NativeFilterStatus();
        status.tookOver(0, 0);
        return status;
    }

    /**
     * The native filter counts the classes in scope, those it passes on to the Java transformer included, and the
     * classes it rewrites itself; these are its counts as it takes over.
     */
    void tookOver(long classesScannedBefore, long classesRewrittenBefore) {
        scannedBefore = classesScannedBefore;
        rewrittenBefore = classesRewrittenBefore;
        tookOver = true;
    }

    void refused(String why) {
        refusal = why;
    }

    public boolean hasTakenOver() {
        return tookOver;
    }

    /** Why the native filter did not take over, or null while it serves, is yet to start, or was not meant to. */
    public String refusal() {
        return refusal;
    }

    /** Classes in scope the native filter has seen; the Java transformer counts those it saw before the hand-over. */
    public long classesScanned() {
        return tookOver ? LibraryCalls.classesScanned() - scannedBefore : 0;
    }

    /** Classes the native filter rewrote itself; the Java transformer counts those it rewrote. */
    public long classesRewritten() {
        return tookOver ? LibraryCalls.classesRewritten() - rewrittenBefore : 0;
    }
}
