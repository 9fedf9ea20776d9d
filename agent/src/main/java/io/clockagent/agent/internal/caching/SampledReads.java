package io.clockagent.agent.internal.caching;

/**
 * For {@code cache=auto} while the cached clock is in use: the reads that took the direct clock during the ticker's
 * short sampling windows, in which it withdraws the value, and the highest rate any window or direct count has shown
 * lately. Used by the ticker thread only.
 *
 * <p>A reader that reads in bursts leaves most windows empty, so the windows' mean alone would call it idle between
 * bursts. The upper bound adds what a burst as intense as the peak could hide between {@code n} windows that all
 * missed it: with windows at random phases, one covering more than {@value #HIDDEN_BURST_WINDOWS}/n of the time
 * would have been seen with 95 % probability (the rule of three).
 */
final class SampledReads {

    static final double HIDDEN_BURST_WINDOWS = 3.0;
    /** How long the peak is remembered: it halves every this many nanoseconds. */
    static final long PEAK_HALF_LIFE_NANOS = 10_000_000_000L;

    private long reads;
    private long windowNanos;
    private int windows;
    private double peakReadsPerSecond;
    private long peakAtNanos;

    /** Starts a new period of windows; the peak carries over. */
    void restart() {
        reads = 0;
        windowNanos = 0;
        windows = 0;
    }

    void window(long windowReads, long nanos, long nowNanos) {
        reads += windowReads;
        windowNanos += nanos;
        windows++;
        observePeak(windowReads * 1e9 / Math.max(1, nanos), nowNanos);
    }

    /** A rate seen over a short span, in a window or while every read went direct. */
    void observePeak(double readsPerSecond, long nowNanos) {
        double decayed = peakReadsPerSecond(nowNanos);
        peakReadsPerSecond = Math.max(decayed, readsPerSecond);
        peakAtNanos = nowNanos;
    }

    /** The mean rate in this period's windows; NaN before the first. */
    double readsPerSecond() {
        return windows == 0 ? Double.NaN : reads * 1e9 / windowNanos;
    }

    /** The mean plus what bursts at the remembered peak could hide between this period's windows. */
    double upperBoundReadsPerSecond(long nowNanos) {
        return windows == 0 ? Double.NaN
                : readsPerSecond() + peakReadsPerSecond(nowNanos) * HIDDEN_BURST_WINDOWS / windows;
    }

    double peakReadsPerSecond(long nowNanos) {
        return peakReadsPerSecond * Math.pow(0.5, (nowNanos - peakAtNanos) / (double) PEAK_HALF_LIFE_NANOS);
    }

    /** How long this period's windows sent the reads direct. */
    long windowNanos() {
        return windowNanos;
    }

    int windows() {
        return windows;
    }
}
