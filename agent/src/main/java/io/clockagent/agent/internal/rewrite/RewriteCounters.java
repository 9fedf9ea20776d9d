package io.clockagent.agent.internal.rewrite;

import io.clockagent.agent.internal.classfile.RewrittenClass;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the Java transformer has done so far, and the sites of the classes either filter rewrote; what the C hook
 * checked and rewrote it counts itself ({@link ClassFilter}). Updated by every class-loading thread at once, read by the report and the
 * MBean at any time. Plain atomic counters: one increment per class is nothing beside defining the class, and a
 * {@code LongAdder} would load four more classes before {@code main}.
 */
public final class RewriteCounters {

    private final boolean countsSites;
    private final AtomicLong classesScanned = new AtomicLong();
    private final AtomicLong classesRewritten = new AtomicLong();
    private final AtomicLong callSites = new AtomicLong();
    private final AtomicLong methodReferences = new AtomicLong();
    private final AtomicLong instantReadsLeft = new AtomicLong();
    private final AtomicLong classesWithInstantReadsLeft = new AtomicLong();
    private final Set<String> failedClasses = ConcurrentHashMap.newKeySet();
    /** Guarded by this, whose lock is taken only for a class refused for its newer format. */
    private boolean newerFormatReported;
    /** Null unless a report file asks for the list; then one entry per rewritten class whose sites were counted. */
    private final Queue<RewrittenClass> rewrittenClasses;

    /**
     * @param countsSites whether rewritten classes come with their sites counted, for {@link #callSites()} and
     *     {@link #methodReferences()}
     * @param keepClassList whether to keep the list of rewritten classes and their sites; needs counted sites
     */
    public RewriteCounters(boolean countsSites, boolean keepClassList) {
        this.countsSites = countsSites;
        this.rewrittenClasses = keepClassList ? new ConcurrentLinkedQueue<>() : null;
    }

    public boolean countsSites() {
        return countsSites;
    }

    void scanned() {
        classesScanned.incrementAndGet();
    }

    /** A class the Java transformer rewrote; the C hook counts its own. */
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

    /** A class with reads of instants left direct, for their resolution; only while {@link #countsSites()}. */
    void instantReadsLeft(int uses) {
        instantReadsLeft.addAndGet(uses);
        classesWithInstantReadsLeft.incrementAndGet();
    }

    /** @return whether this is the first failure of a class by that name, which is the one to report */
    boolean failed(String className) {
        return failedClasses.add(className);
    }

    /**
     * A class refused for a newer class file format's unknown constant, which every class its compiler wrote is likely
     * to hold: counted as failed like any other, but reported for the first such class of the run only.
     *
     * @return whether this is that first one
     */
    synchronized boolean failedInNewerFormat(String className) {
        failedClasses.add(className);
        boolean first = !newerFormatReported;
        newerFormatReported = true;
        return first;
    }

    public long classesScanned() {
        return classesScanned.get();
    }

    public long classesRewritten() {
        return classesRewritten.get();
    }

    /** Call sites in the rewritten classes; 0 unless {@link #countsSites()}. */
    public long callSites() {
        return callSites.get();
    }

    /** Method references in the rewritten classes; 0 unless {@link #countsSites()}. */
    public long methodReferences() {
        return methodReferences.get();
    }

    /**
     * Uses of the java.time reads of instants that {@code cachedInstants} would redirect, in classes in scope it does
     * not name; 0 unless {@link #countsSites()}.
     */
    public long instantReadsLeft() {
        return instantReadsLeft.get();
    }

    /** The classes those are in. */
    public long classesWithInstantReadsLeft() {
        return classesWithInstantReadsLeft.get();
    }

    public long classesFailed() {
        return failedClasses.size();
    }

    /** The rewritten classes so far, or an empty list when nobody asked for them. */
    public List<RewrittenClass> rewrittenClasses() {
        return rewrittenClasses == null ? List.of() : new ArrayList<>(rewrittenClasses);
    }
}
