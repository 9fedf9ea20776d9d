package io.clockagent.agent.internal.caching;

/**
 * When the ticker keeps the cached value published, as the {@code cache} option asks: consulted by the ticker at the
 * first read, before each tick, and once per probe interval while it ticks, and free to take the value from readers
 * meanwhile through the {@link GatedTicker} it is handed. Used by the ticker thread only, but for
 * {@link #decision()}.
 */
public interface CacheGate {

    /**
     * The gate for a ticker, made on its thread: {@code cache=auto}'s, deciding with {@code decision}, or
     * {@code cache=always}'s where that is null.
     */
    static CacheGate of(CachingDecision decision) {
        return decision == null ? new CacheWhileRead() : new CacheWhileItPays(decision);
    }

    /**
     * Once the first read has woken the ticker: whether to start ticking, after whatever the gate did with the reads
     * first.
     *
     * @return whether to tick (false once the ticker closed)
     */
    boolean opensOnFirstRead(GatedTicker ticker);

    /** The ticker starts ticking, for the first time or after a pause, and publishes right after. */
    void tickingStarts();

    /**
     * Before the ticker waits for the boundary at {@code boundaryWallNanos}: whether the gate took the value from
     * readers meanwhile and published it afresh, so that the boundary must be reckoned from that publish.
     */
    boolean sampledBefore(long boundaryWallNanos, GatedTicker ticker);

    /** Whether the gate has what it needs to review, once the probe interval is over. */
    boolean readyToReview();

    /**
     * Once per probe interval while the ticker ticks: whether to go on, after whatever pause the gate chose, such as
     * idling until the next read; the ticker then publishes afresh.
     *
     * @return whether to tick again (false once the ticker closed)
     */
    boolean review(GatedTicker ticker);

    /** The figures the gate decides on, for the report and the MBean from any thread; null where it measures none. */
    CachingDecision decision();
}
