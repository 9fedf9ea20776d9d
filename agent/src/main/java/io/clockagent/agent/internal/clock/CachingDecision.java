package io.clockagent.agent.internal.clock;

/**
 * For {@code cache=auto}: whether the cached clock pays at the read rate the ticker last estimated. Caching saves a
 * direct call's cost on every read and costs the ticker's own CPU time; it pays while
 * {@code reads per second x direct call's cost} is above the ticker's cost per second. With hysteresis: caching
 * starts only once the saving is {@value #START_MARGIN} times the cost, and stops as soon as it falls below the cost,
 * so that a rate near the threshold does not flap, and caching never goes on at a loss. Used by the ticker thread
 * only; the figures it keeps are read by the MBean and the report from any thread.
 */
public final class CachingDecision {

    public static final double START_MARGIN = 1.5;
    /**
     * While caching, how far above break-even the reads counted in a short sample must be, and how many, for the
     * sample to end there: well clear of break-even, a longer count would only send more reads to the direct clock.
     */
    static final double SETTLED_EARLY_MARGIN = 4.0;
    static final long SETTLED_EARLY_MIN_READS = 64;
    /**
     * What the ticker is taken to cost before it has ticked and measured itself: 3 % of a core, about what it spends on
     * a virtual machine at a 1 ms tick.
     */
    static final double ASSUMED_TICKER_CPU_SHARE = 0.03;

    private volatile boolean caching;
    private volatile double directCallNanos = Double.NaN;
    private volatile double tickerCpuNanosPerSecond;
    private volatile double readsPerSecond = Double.NaN;
    private volatile long switches;

    /**
     * @param cachingAtFirst whether to cache from the first read on, before any rate is known: the ticker starts
     *     optimistic, and its first sample, a second later, decides
     */
    CachingDecision(boolean cachingAtFirst, long tickNanos) {
        this.caching = cachingAtFirst;
        this.tickerCpuNanosPerSecond = ASSUMED_TICKER_CPU_SHARE * 1e9 * Math.min(1.0, 1_000_000.0 / tickNanos);
    }

    /** What one direct {@code System.currentTimeMillis()} costs here, as the ticker measured it. */
    void directCallMeasured(double nanos) {
        directCallNanos = nanos;
    }

    /** The ticker's own CPU time per second of wall time while it ticked, as it measured it. */
    void tickerCostMeasured(double cpuNanosPerSecond) {
        tickerCpuNanosPerSecond = cpuNanosPerSecond;
    }

    /**
     * Whether a sample of the direct reads may end after counting {@code reads} in {@code elapsedNanos}, short of its
     * full length: only while caching, at a rate that pays {@value #SETTLED_EARLY_MARGIN} times over. At millions of
     * reads a second each sampled millisecond costs a direct call per read; a rate near break-even gets the full
     * sample.
     */
    boolean settledEarly(long reads, long elapsedNanos) {
        return caching && reads >= SETTLED_EARLY_MIN_READS && elapsedNanos > 0
                && reads * 1e9 / elapsedNanos * directCallNanos >= SETTLED_EARLY_MARGIN * tickerCpuNanosPerSecond;
    }

    /**
     * Decides at the given rate, counting a switch when the answer changes.
     *
     * @return whether to keep, or start, caching
     */
    boolean decide(double readsPerSecondNow) {
        readsPerSecond = readsPerSecondNow;
        double savedNanosPerSecond = readsPerSecondNow * directCallNanos;
        boolean cache = caching ? savedNanosPerSecond >= tickerCpuNanosPerSecond
                : savedNanosPerSecond >= START_MARGIN * tickerCpuNanosPerSecond;
        if (cache != caching) {
            caching = cache;
            switches++;
        }
        return cache;
    }

    public boolean caching() {
        return caching;
    }

    /** NaN until measured. */
    public double directCallNanos() {
        return directCallNanos;
    }

    public double tickerCpuNanosPerSecond() {
        return tickerCpuNanosPerSecond;
    }

    /** The last estimate; NaN before the first. */
    public double readsPerSecond() {
        return readsPerSecond;
    }

    /** The rate at which the reads saved pay for the ticker exactly; NaN before the direct call was measured. */
    public double breakEvenReadsPerSecond() {
        return tickerCpuNanosPerSecond / directCallNanos;
    }

    public long switches() {
        return switches;
    }
}
