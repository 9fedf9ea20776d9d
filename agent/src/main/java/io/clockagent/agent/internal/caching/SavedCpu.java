package io.clockagent.agent.internal.caching;

/**
 * For {@code cache=auto}: the CPU time the cached clock saved the service, net of what its ticker spent. Each read
 * served from the cache saves a direct call, at the cost the ticker measured for one; the ticker's thread spends its
 * own CPU time, as the scheduler counts it, on ticking, sampling and counting the reads that go direct. Accounted by
 * the ticker thread at each of its reviews and looks at the direct count; read by the MBean and the report from any
 * thread.
 *
 * <p>Left out, as the agent does not measure them: what a cached read itself costs (under a nanosecond, against tens
 * to hundreds for a direct call) and what counting a direct read adds to it.
 */
public final class SavedCpu {

    /**
     * How long past its last account a reader carries the last interval's rates on: the ticker accounts at least
     * once a second while it runs, and a ticker that stopped accounting must not be taken to save on for ever.
     */
    static final long MOST_EXTRAPOLATED_NANOS = 2_000_000_000L;

    /*
     * Written by the ticker thread alone, each field once per account (volatile, one writer); read by any thread. A
     * reader may see one field of an account beside another of the one before, which puts a figure off by at most one
     * interval's share, about a second of saving.
     */
    private volatile double readCpuSavedNanos;
    private volatile long tickerCpuNanos;
    /** The last interval's saving and the ticker's CPU over it, per second; zero while the ticker idles. */
    private volatile double readCpuSavedNanosPerSecond;
    private volatile double tickerCpuNanosPerSecond;
    private volatile long accountedAtNanos;
    /** False where the ticker's CPU time cannot be read: then nothing is known of the net figure. */
    private volatile boolean measurable = true;

    /** On the ticker thread as it starts: the first interval starts now, its CPU from the thread's start. */
    void begin(long nowNanos) {
        accountedAtNanos = nowNanos;
    }

    /**
     * On the ticker thread: the reads served from the cache since the last account, each saving a direct call, and
     * the ticker's CPU time so far.
     *
     * @param tickerCpuNanosNow the ticker thread's CPU time since it started, or {@link ThreadCpuTime#UNKNOWN}
     */
    void account(double cachedReads, double directCallNanos, long tickerCpuNanosNow, long nowNanos) {
        if (tickerCpuNanosNow == ThreadCpuTime.UNKNOWN) {
            measurable = false;
            return;
        }
        long intervalNanos = nowNanos - accountedAtNanos;
        double savedNanos = cachedReads > 0 ? cachedReads * directCallNanos : 0.0;
        long spentNanos = tickerCpuNanosNow - tickerCpuNanos;
        if (intervalNanos > 0) {
            readCpuSavedNanosPerSecond = savedNanos * 1e9 / intervalNanos;
            tickerCpuNanosPerSecond = spentNanos * 1e9 / intervalNanos;
        }
        readCpuSavedNanos += savedNanos;
        tickerCpuNanos = tickerCpuNanosNow;
        accountedAtNanos = nowNanos;
    }

    /** On the ticker thread, once accounted, as it parks until the next read: no read is served, no CPU spent. */
    void idles() {
        readCpuSavedNanosPerSecond = 0.0;
        tickerCpuNanosPerSecond = 0.0;
    }

    /** Since the last account: whatever began the interval ({@link #begin} or {@link #account}). */
    long accountedAtNanos() {
        return accountedAtNanos;
    }

    /** The CPU time saved a second over the last interval, net of the ticker: negative where it cost; NaN unknown. */
    public double savedCpuNanosPerSecond() {
        return measurable ? readCpuSavedNanosPerSecond - tickerCpuNanosPerSecond : Double.NaN;
    }

    /** The CPU time the cached reads saved so far, before the ticker's: it only grows. NaN where unknown. */
    public double readCpuSavedNanos(long nowNanos) {
        return measurable ? readCpuSavedNanos + readCpuSavedNanosPerSecond * extrapolatedSeconds(nowNanos)
                : Double.NaN;
    }

    /** The ticker thread's CPU time so far: it only grows. NaN where unknown. */
    public double tickerCpuNanos(long nowNanos) {
        return measurable ? tickerCpuNanos + tickerCpuNanosPerSecond * extrapolatedSeconds(nowNanos) : Double.NaN;
    }

    /** The CPU time saved so far, net of the ticker's: negative where caching cost more than it saved. */
    public double savedCpuNanos(long nowNanos) {
        return readCpuSavedNanos(nowNanos) - tickerCpuNanos(nowNanos);
    }

    /**
     * Carried on from the last account at its rates, so that figures read between two accounts, a second apart, move
     * as the saving does rather than in steps.
     */
    private double extrapolatedSeconds(long nowNanos) {
        return Math.min(Math.max(0L, nowNanos - accountedAtNanos), MOST_EXTRAPOLATED_NANOS) / 1e9;
    }
}
