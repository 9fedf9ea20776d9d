package io.clockagent.agent.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * What the transformer has done so far. Updated by every class-loading thread at once, read by the report and the
 * MBean at any time. Plain atomic counters: one increment per class is nothing beside defining the class, and a
 * {@code LongAdder} would load four more classes before {@code main}.
 */
final class RewriteCounters {

    private final boolean countsSites;
    private final AtomicLong classesScanned = new AtomicLong();
    /** Null until the native filter takes over. */
    private volatile LongSupplier nativeScans;
    private volatile LongSupplier nativeRewrites;
    /** Why the native filter did not take over, once that is known; null otherwise. */
    private volatile String nativeFilterRefusal;
    private final AtomicLong classesRewritten = new AtomicLong();
    private final AtomicLong callSites = new AtomicLong();
    private final AtomicLong methodReferences = new AtomicLong();
    private final Set<String> failedClasses = ConcurrentHashMap.newKeySet();
    /** Null unless a report file asks for the list; then one entry per rewritten class whose sites were counted. */
    private final Queue<RewrittenClass> rewrittenClasses;

    /**
     * @param countsSites whether rewritten classes come with their sites counted, for {@link #callSites()} and
     *     {@link #methodReferences()}
     * @param keepClassList whether to keep the list of rewritten classes and their sites; needs counted sites
     */
    RewriteCounters(boolean countsSites, boolean keepClassList) {
        this.countsSites = countsSites;
        this.rewrittenClasses = keepClassList ? new ConcurrentLinkedQueue<>() : null;
    }

    boolean countsSites() {
        return countsSites;
    }

    void scanned() {
        classesScanned.incrementAndGet();
    }

    /** A class the Java transformer rewrote; the native filter counts its own. */
    void rewritten() {
        classesRewritten.incrementAndGet();
    }

    /** The sites of a rewritten class, by whichever rewriter; only while {@link #countsSites()}. */
    void sitesCounted(RewrittenClass rewritten) {
        callSites.addAndGet(rewritten.callSites());
        methodReferences.addAndGet(rewritten.methodReferences());
        if (rewrittenClasses != null) {
            rewrittenClasses.add(rewritten);
        }
    }

    /** @return whether this is the first failure of a class by that name, which is the one to report */
    boolean failed(String className) {
        return failedClasses.add(className);
    }

    /**
     * Once the native filter has taken over, it counts the classes in scope, those it passes on to Java included, and
     * the classes it rewrites itself.
     */
    void countNatively(LongSupplier scans, LongSupplier rewrites) {
        nativeRewrites = rewrites;
        nativeScans = scans;
    }

    /** Records why the native filter cannot take over, where it was meant to; the Java transformer goes on serving. */
    void nativeFilterRefused(String why) {
        nativeFilterRefusal = why;
    }

    /** Why the native filter did not take over, or null while it serves, is yet to start, or was not meant to. */
    String nativeFilterRefusal() {
        return nativeFilterRefusal;
    }

    long classesScanned() {
        return classesScanned.get() + classesScannedNatively();
    }

    /** Whether the native class filter has taken over. */
    boolean countsNatively() {
        return nativeScans != null;
    }

    long classesScannedNatively() {
        LongSupplier scans = nativeScans;
        return scans == null ? 0 : scans.getAsLong();
    }

    long classesRewritten() {
        return classesRewritten.get() + classesRewrittenNatively();
    }

    long classesRewrittenNatively() {
        LongSupplier rewrites = nativeRewrites;
        return rewrites == null ? 0 : rewrites.getAsLong();
    }

    /** Call sites in the rewritten classes; 0 unless {@link #countsSites()}. */
    long callSites() {
        return callSites.get();
    }

    /** Method references in the rewritten classes; 0 unless {@link #countsSites()}. */
    long methodReferences() {
        return methodReferences.get();
    }

    long classesFailed() {
        return failedClasses.size();
    }

    /** The rewritten classes so far, or an empty list when nobody asked for them. */
    List<RewrittenClass> rewrittenClasses() {
        return rewrittenClasses == null ? List.of() : new ArrayList<>(rewrittenClasses);
    }
}
