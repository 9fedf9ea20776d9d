package io.clockagent.agent.internal.caching;

import java.util.Arrays;

/**
 * For {@code cache=auto} while it caches: what a direct read costs the service itself, with what the system call or
 * the clock's hardware costs the code around it, which a direct call timed alone on the ticker thread leaves out (on
 * a clock read through a system call, the service pays about twice that). Measured in pairs of windows of equal
 * length: in the first the value stays cached but every read is counted, in the second every read goes direct and is
 * counted the same way, so that the process's CPU time a read in the two differs by the clock call alone, whether the
 * service is saturated (the direct window does fewer reads in the same CPU) or not (more CPU for the same reads). The
 * ticker's own CPU time is left out of both. Used by the ticker thread; {@link #medianNanos} and {@link #pairs} from
 * any thread.
 *
 * <p>A pair's figure is noisy: the process clock sees other threads' running time only at the scheduler's ticks, and
 * a collection or a burst of requests in one window and not the other moves it. So the price is the median of the
 * last {@value #PAIRS_KEPT} pairs, and it replaces the direct call timed alone only where the pairs show it higher
 * with 95 % confidence (a sign test on the median), so that noise on a fast clock, where the two nearly agree, makes
 * no saving up.
 */
public final class DirectReadPrice {

    static final int PAIRS_KEPT = 31;
    /** Fewer pairs give no confidence bound on the median. */
    static final int FEWEST_PAIRS = 5;
    /** Fewer reads in either window make a ratio of CPU time to reads mostly noise. */
    static final long FEWEST_READS_A_WINDOW = 500;
    /** The normal quantile of a one-sided 97.5 % bound, for the sign test's order statistic. */
    private static final double Z_97_5 = 1.96;

    private final double[] priceNanos = new double[PAIRS_KEPT];
    private int kept;
    private int next;
    private volatile double medianNanos = Double.NaN;
    private volatile double lowerBoundNanos = Double.NaN;
    private volatile long pairs;

    /**
     * One pair of windows: the process's CPU time (the ticker's left out) and the reads counted in each; a pair with
     * too few reads in either is not kept.
     *
     * @return whether the pair was kept
     */
    boolean pair(long countedCpuNanos, long countedReads, long directCpuNanos, long directReads) {
        if (countedReads < FEWEST_READS_A_WINDOW || directReads < FEWEST_READS_A_WINDOW) {
            return false;
        }
        priceNanos[next] = directCpuNanos / (double) directReads - countedCpuNanos / (double) countedReads;
        next = (next + 1) % PAIRS_KEPT;
        kept = Math.min(kept + 1, PAIRS_KEPT);
        pairs++;
        double[] sorted = Arrays.copyOf(priceNanos, kept);
        Arrays.sort(sorted);
        medianNanos = kept % 2 == 1 ? sorted[kept / 2] : (sorted[kept / 2 - 1] + sorted[kept / 2]) / 2;
        int lowerIndex = (int) Math.floor((kept - Z_97_5 * Math.sqrt(kept)) / 2);
        lowerBoundNanos = kept >= FEWEST_PAIRS && lowerIndex >= 0 ? sorted[lowerIndex] : Double.NaN;
        return true;
    }

    /**
     * The price to account a cached read at: the median in the service where the pairs show it above the direct call
     * timed alone, else that call's.
     */
    double priceNanos(double directCallAloneNanos) {
        double lowerBound = lowerBoundNanos;
        return lowerBound > directCallAloneNanos ? medianNanos : directCallAloneNanos;
    }

    /** The median of the pairs kept; NaN before the first. */
    public double medianNanos() {
        return medianNanos;
    }

    /** The pairs measured so far, kept or since replaced. */
    public long pairs() {
        return pairs;
    }
}
