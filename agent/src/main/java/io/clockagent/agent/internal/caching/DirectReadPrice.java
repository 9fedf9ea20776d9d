package io.clockagent.agent.internal.caching;

/**
 * For {@code cache=auto} while it caches: what a direct read costs the service itself, with what the system call or
 * the clock's hardware costs the code around it, which a direct call timed alone on the ticker thread leaves out.
 * Measured in pairs of windows of equal length: in the first the value stays cached but every read is counted, in the
 * second every read goes direct and is counted the same way, so that the process's CPU time a read in the two differs
 * by the clock call alone, whether the service is saturated (the direct window does fewer reads in the same CPU) or
 * not (more CPU for the same reads). The ticker's own CPU time is left out of both. Used by the ticker thread;
 * {@link #inServiceNanos} and {@link #pairs} from any thread.
 *
 * <p>A pair alone says little: a service's work comes unevenly, a collection or a compilation falls in one window and
 * not the other, and the process clock sees other threads' running time only at the scheduler's ticks, so that the
 * reads of two windows of 25 ms differ by half (on the emulated slow clock, 2026-12-02: a pair's price from -2,500 to
 * 4,300 ns around some 800). So the price is the ratio of the sums over the last {@value #PAIRS_KEPT} pairs, each
 * window type's CPU time over its reads, with the standard error of the pairs' paired differences; and it replaces
 * the call timed alone only where it lies above it by {@value #STANDARD_ERRORS} standard errors, so that noise,
 * as on a fast clock where the two nearly agree, makes no saving up.
 */
public final class DirectReadPrice {

    static final int PAIRS_KEPT = 63;
    /** Fewer pairs give no standard error to judge the price by. */
    static final int FEWEST_PAIRS = 5;
    /** Fewer reads in either window make its ratio of CPU time to reads mostly noise. */
    static final long FEWEST_READS_A_WINDOW = 500;
    /** How far above the call timed alone the price must lie to be taken: about 97.5 % one-sided. */
    static final double STANDARD_ERRORS = 2.0;

    /* The kept pairs' windows, a ring: CPU time and reads, counted (cached) then direct. */
    private final long[] countedCpuNanos = new long[PAIRS_KEPT];
    private final long[] countedReads = new long[PAIRS_KEPT];
    private final long[] directCpuNanos = new long[PAIRS_KEPT];
    private final long[] directReads = new long[PAIRS_KEPT];
    private int kept;
    private int next;
    private volatile double inServiceNanos = Double.NaN;
    private volatile double standardErrorNanos = Double.NaN;
    private volatile long pairs;

    /**
     * One pair of windows: the process's CPU time (the ticker's left out) and the reads counted in each; a pair with
     * too few reads in either is not kept.
     *
     * @return whether the pair was kept
     */
    boolean pair(long countedWindowCpuNanos, long countedWindowReads, long directWindowCpuNanos,
            long directWindowReads) {
        if (countedWindowReads < FEWEST_READS_A_WINDOW || directWindowReads < FEWEST_READS_A_WINDOW) {
            return false;
        }
        countedCpuNanos[next] = countedWindowCpuNanos;
        countedReads[next] = countedWindowReads;
        directCpuNanos[next] = directWindowCpuNanos;
        directReads[next] = directWindowReads;
        next = (next + 1) % PAIRS_KEPT;
        kept = Math.min(kept + 1, PAIRS_KEPT);
        pairs++;
        if (kept >= FEWEST_PAIRS) {
            estimate();
        }
        return true;
    }

    /**
     * The ratio of sums for each window type, and the standard error of their difference from the pairs' residuals:
     * each window's CPU time less what its reads cost at its type's ratio, over the type's mean reads a window.
     */
    private void estimate() {
        double countedCpu = 0;
        double counted = 0;
        double directCpu = 0;
        double direct = 0;
        for (int i = 0; i < kept; i++) {
            countedCpu += countedCpuNanos[i];
            counted += countedReads[i];
            directCpu += directCpuNanos[i];
            direct += directReads[i];
        }
        double countedRatio = countedCpu / counted;
        double directRatio = directCpu / direct;
        double squares = 0;
        for (int i = 0; i < kept; i++) {
            double residual = (directCpuNanos[i] - directRatio * directReads[i]) / (direct / kept)
                    - (countedCpuNanos[i] - countedRatio * countedReads[i]) / (counted / kept);
            squares += residual * residual;
        }
        standardErrorNanos = Math.sqrt(squares / (kept - 1) / kept);
        inServiceNanos = directRatio - countedRatio;
    }

    /**
     * The price to account a cached read at: the price in the service where it lies clearly above the direct call
     * timed alone, else that call's.
     */
    double priceNanos(double directCallAloneNanos) {
        double price = inServiceNanos;
        return price - STANDARD_ERRORS * standardErrorNanos > directCallAloneNanos ? price : directCallAloneNanos;
    }

    /** The price in the service; NaN before {@value #FEWEST_PAIRS} pairs. */
    public double inServiceNanos() {
        return inServiceNanos;
    }

    /** Its standard error; NaN before {@value #FEWEST_PAIRS} pairs. */
    public double standardErrorNanos() {
        return standardErrorNanos;
    }

    /** The pairs measured so far, kept or since replaced. */
    public long pairs() {
        return pairs;
    }
}
