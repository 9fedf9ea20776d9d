package io.clockagent.agent.internal.caching;

/**
 * For {@code cache=auto}: whether the cached clock pays at the read rate the ticker estimates. Caching saves a direct
 * call's cost on every read and costs the ticker's own CPU time; it pays while
 * {@code reads per second x direct call's cost} is above the ticker's cost per second. With hysteresis: caching
 * starts only once the saving is {@value #START_MARGIN} times the cost, and stops as soon as it falls below the cost,
 * so that a rate near the threshold does not flap, and caching never goes on at a loss.
 *
 * <p>While caching, the rate comes from short sampling windows ({@link SampledReads}), which can miss a reader that
 * reads in bursts; while reads go direct, every read is counted ({@link DirectReadHistory}). So a stop that the windows
 * cannot be sure of (their mean below break-even, their upper bound above it) is a trial: if the direct count starts
 * caching again within {@value #REVERSED_STOP_NANOS} ns, the windows were wrong, and the next unsure stop waits
 * {@value #FIRST_TRIAL_INTERVAL_NANOS} ns, then twice as long each time the count reverses a trial again, up to
 * {@value #MAX_TRIAL_INTERVAL_NANOS} ns. Caching that starts again after a sure stop that the count reversed (the rate
 * rose) waits the first interval before its first trial, and so does caching that starts for the first time, as reads
 * start on the direct clock. A trial the count reverses costs the reads it sends direct
 * until then, at most about what the ticker spends in two seconds; one the count confirms ends the wait. A stop the
 * windows are sure of is always taken. Used by the ticker thread only; the figures it keeps are read by the MBean and
 * the report from any thread.
 */
public final class CachingDecision {

    public static final double START_MARGIN = 1.5;
    /** While caching, how far above break-even the windows' rate must be for a few windows a second to do. */
    static final double CLEAR_MARGIN = 4.0;
    /**
     * While reads go direct, the share of break-even below which a look a second at their count is enough: caching is
     * far from paying there, and a rise to the start margin, fifteen times as many reads, is seen at the next look.
     */
    static final double WATCH_MARGIN = 0.1;
    static final long REVERSED_STOP_NANOS = 30_000_000_000L;
    static final long FIRST_TRIAL_INTERVAL_NANOS = 4_000_000_000L;
    static final long MAX_TRIAL_INTERVAL_NANOS = 120_000_000_000L;
    /**
     * What the ticker is taken to cost before it has ticked and measured itself, as a share of a core at a 1 ms tick:
     * the low end of what it spends (see benchmarks/README.md#does-caching-pay). Reads start on the direct clock, so a
     * higher guess would never be corrected: a rate it put below the start margin never starts the ticking that
     * measures the real cost. With the low end, the count starts caching wherever it might pay, the first second of
     * ticks measures the cost, and the windows decide with it.
     */
    static final double ASSUMED_TICKER_CPU_SHARE = 0.015;

    private volatile boolean caching;
    private volatile double directCallNanos = Double.NaN;
    private volatile double tickerCpuNanosPerSecond;
    private volatile double readsPerSecond = Double.NaN;
    private volatile long switches;
    private volatile long trialStops;
    private final SavedCpu savedCpu = new SavedCpu();
    private final DirectReadPrice directReadPrice = new DirectReadPrice();

    private long stoppedAtNanos;
    private boolean stopped;
    private boolean stoppedOnTrial;
    private long trialIntervalNanos;
    private long nextTrialNanos;

    /** Reads start on the direct clock, counted: caching starts once their count shows that it pays. */
    public CachingDecision(long tickNanos) {
        this.tickerCpuNanosPerSecond = ASSUMED_TICKER_CPU_SHARE * 1e9 * Math.min(1.0, 1_000_000.0 / tickNanos);
    }

    /** What one direct {@code System.currentTimeMillis()} costs on this host, as the ticker measured it. */
    void directCallMeasured(double nanos) {
        directCallNanos = nanos;
    }

    /** The ticker's own CPU time per second of wall time while it ticked, as it measured it. */
    void tickerCostMeasured(double cpuNanosPerSecond) {
        tickerCpuNanosPerSecond = cpuNanosPerSecond;
    }

    /**
     * While caching: whether to go on, from the windows' mean rate and its upper bound, counting a switch when it
     * stops.
     */
    boolean keepCaching(double sampledReadsPerSecond, double upperBoundReadsPerSecond, long nowNanos) {
        readsPerSecond = sampledReadsPerSecond;
        if (pays(sampledReadsPerSecond, 1.0)) {
            return true;
        }
        boolean sure = !pays(upperBoundReadsPerSecond, 1.0);
        if (!sure && trialIntervalNanos != 0 && nowNanos - nextTrialNanos < 0) {
            return true;
        }
        if (!sure) {
            trialStops++;
        }
        caching = false;
        switches++;
        stopped = true;
        stoppedOnTrial = !sure;
        stoppedAtNanos = nowNanos;
        return false;
    }

    /** While reads go direct: whether to start caching at the counted rate, counting a switch when it does. */
    boolean startCaching(double countedReadsPerSecond, long nowNanos) {
        readsPerSecond = countedReadsPerSecond;
        if (!pays(countedReadsPerSecond, START_MARGIN)) {
            return false;
        }
        if (!stopped) {
            // The count has just shown the rate paying: unsure windows are not reason enough to stop at once.
            trialIntervalNanos = FIRST_TRIAL_INTERVAL_NANOS;
        } else if (nowNanos - stoppedAtNanos < REVERSED_STOP_NANOS) {
            trialIntervalNanos = stoppedOnTrial && trialIntervalNanos != 0
                    ? Math.min(2 * trialIntervalNanos, MAX_TRIAL_INTERVAL_NANOS) : FIRST_TRIAL_INTERVAL_NANOS;
        } else {
            trialIntervalNanos = 0;
        }
        nextTrialNanos = nowNanos + trialIntervalNanos;
        caching = true;
        switches++;
        return true;
    }

    /** Whether the windows' rate pays so clearly that a few windows a second are enough to watch it. */
    boolean paysClearly(double sampledReadsPerSecond) {
        return pays(sampledReadsPerSecond, CLEAR_MARGIN);
    }

    /** Whether a direct count at this rate deserves looks more often than once a second. */
    boolean worthWatching(double readsPerSecondNow) {
        return pays(readsPerSecondNow, WATCH_MARGIN);
    }

    /** Whether a rate would start caching if it held: a direct count at it deserves a closer look. */
    boolean paysToStart(double readsPerSecondNow) {
        return pays(readsPerSecondNow, START_MARGIN);
    }

    private boolean pays(double readsPerSecondNow, double margin) {
        return readsPerSecondNow * directCallNanos >= margin * tickerCpuNanosPerSecond;
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

    /** What caching saved, net of the ticker, as the ticker accounts it. */
    public SavedCpu savedCpu() {
        return savedCpu;
    }

    /** What a direct read costs the service, as measured in it while caching. */
    public DirectReadPrice directReadPrice() {
        return directReadPrice;
    }

    /**
     * What a read served from the cache saves: a direct read's price in the service where measured and above the
     * call timed alone, else that call's. The decision itself keeps to the call timed alone, the lower of the two, so
     * that caching never starts at a loss.
     */
    public double savedReadNanos() {
        return directReadPrice.priceNanos(directCallNanos);
    }

    /** The stops the windows were unsure of, taken to let the direct count decide. */
    public long trialStops() {
        return trialStops;
    }
}
