package io.clockagent.agent.internal.caching;

/**
 * For {@code cache=auto} while it caches: what a direct read costs the service itself, with what the system call or
 * the clock's hardware costs the code around it, which a direct call timed alone on the ticker thread leaves out.
 * Measured in pairs, each of a few short segments of either kind in turn and of equal length: in a counted segment the
 * value stays cached but every read is counted, in a direct one every read goes direct and is counted the same way, so
 * that the service's CPU time a read ({@link ServiceCpuTime}) in the two differs by the clock call alone, whether the
 * service is saturated (direct segments do fewer reads in the same CPU) or not (more CPU for the same reads). The pairs
 * also tell how much faster reads come while cached, where a saturated service reads faster for not paying the call.
 * Used by the ticker thread; {@link #inServiceNanos}, {@link #standardErrorNanos} and {@link #pairs} from any thread.
 *
 * <p>A pair alone says little: a service's work comes unevenly, and its reads with it, so that the reads of two
 * segments of the same kind, 25 ms apart, differ by half. Short segments in turn cancel most of that, as it drifts more
 * slowly than they alternate: in the demo's service on the emulated slow clock (2026-12-02) a pair's price, with
 * caching alone and so zero, spread with a standard deviation of 435 ns from one counted and one direct window of
 * 25 ms, and of 265 from three of 8 ms in turn. So the price is the ratio of the sums over the last {@value #PAIRS_KEPT}
 * pairs, each kind's CPU time over its reads, with the standard error of the pairs' paired differences; and it
 * replaces the call timed alone only once that error is at most {@value #MOST_RELATIVE_ERROR} of it, so that noise
 * makes no saving up: on a fast clock, where a read costs tens of nanoseconds and a pair's noise hundreds, it never
 * is, and the call timed alone stays the price.
 */
public final class DirectReadPrice {

    static final int PAIRS_KEPT = 63;
    /** Fewer pairs give no standard error to judge the price by. */
    static final int FEWEST_PAIRS = 5;
    /** Fewer reads in either kind of a pair's segments make its ratio of CPU time to reads mostly noise. */
    static final long FEWEST_READS_A_KIND = 500;
    /** How precise the price must be to be taken: a standard error at most this share of it, 95 % within 40 %. */
    static final double MOST_RELATIVE_ERROR = 0.2;
    /** Kept pairs after which a price that the kept pairs could not tell from zero is given up. */
    static final int PAIRS_TO_JUDGE_REACH = 15;
    /** Standard errors from zero at which a price is told from it, 95 % of the time. */
    static final double TOLD_FROM_ZERO_ERRORS = 1.96;

    /*
     * The kept pairs, a ring: each kind's length, CPU time and reads, counted (cached) then direct; and the JVM's
     * compilers' and VM threads' CPU time since the pair before, and over how long.
     */
    private final long[] countedNanos = new long[PAIRS_KEPT];
    private final long[] countedCpuNanos = new long[PAIRS_KEPT];
    private final long[] countedReads = new long[PAIRS_KEPT];
    private final long[] directNanos = new long[PAIRS_KEPT];
    private final long[] directCpuNanos = new long[PAIRS_KEPT];
    private final long[] directReads = new long[PAIRS_KEPT];
    private final long[] fixedJvmCpuNanos = new long[PAIRS_KEPT];
    private final long[] fixedJvmSpanNanos = new long[PAIRS_KEPT];
    private int kept;
    private int next;
    /* The pair under way: its segments so far, summed by kind. */
    private long pairCountedNanos;
    private long pairCountedCpuNanos;
    private long pairCountedReads;
    private long pairDirectNanos;
    private long pairDirectCpuNanos;
    private long pairDirectReads;
    private long pairFixedJvmCpuNanos;
    private long pairFixedJvmSpanNanos;
    private volatile double inServiceNanos = Double.NaN;
    private volatile double standardErrorNanos = Double.NaN;
    private double cachedToDirectReadRate = Double.NaN;
    private volatile long pairs;

    /** A counted segment of the pair under way: how long it lasted, the service's CPU time and the reads in it. */
    void countedSegment(long nanos, long cpuNanos, long reads) {
        pairCountedNanos += nanos;
        pairCountedCpuNanos += cpuNanos;
        pairCountedReads += reads;
    }

    /** A direct segment of the pair under way, as {@link #countedSegment}. */
    void directSegment(long nanos, long cpuNanos, long reads) {
        pairDirectNanos += nanos;
        pairDirectCpuNanos += cpuNanos;
        pairDirectReads += reads;
    }

    /**
     * For the pair under way: the JVM's compilers' and VM threads' CPU time since the pair before, or since the
     * ticker first read it, and over how long; nothing where either reading was unknown.
     */
    void fixedJvmSpent(long cpuNanos, long spanNanos) {
        boolean known = cpuNanos >= 0 && spanNanos > 0;
        pairFixedJvmCpuNanos = known ? cpuNanos : 0;
        pairFixedJvmSpanNanos = known ? spanNanos : 0;
    }

    /**
     * Ends the pair under way, kept where both kinds saw enough reads, and prices afresh.
     *
     * @return whether the pair was kept
     */
    boolean endPair() {
        boolean keep = pairCountedReads >= FEWEST_READS_A_KIND && pairDirectReads >= FEWEST_READS_A_KIND
                && pairCountedNanos > 0 && pairDirectNanos > 0;
        if (keep) {
            countedNanos[next] = pairCountedNanos;
            countedCpuNanos[next] = pairCountedCpuNanos;
            countedReads[next] = pairCountedReads;
            directNanos[next] = pairDirectNanos;
            directCpuNanos[next] = pairDirectCpuNanos;
            directReads[next] = pairDirectReads;
            fixedJvmCpuNanos[next] = pairFixedJvmCpuNanos;
            fixedJvmSpanNanos[next] = pairFixedJvmSpanNanos;
            next = (next + 1) % PAIRS_KEPT;
            kept = Math.min(kept + 1, PAIRS_KEPT);
            pairs++;
            if (kept >= FEWEST_PAIRS) {
                estimate();
            }
        }
        dropPair();
        return keep;
    }

    /** Forgets the pair under way: one of its readings was unknown. */
    void dropPair() {
        pairCountedNanos = 0;
        pairCountedCpuNanos = 0;
        pairCountedReads = 0;
        pairDirectNanos = 0;
        pairDirectCpuNanos = 0;
        pairDirectReads = 0;
        pairFixedJvmCpuNanos = 0;
        pairFixedJvmSpanNanos = 0;
    }

    /**
     * The ratio of sums for each kind, and the standard error of their difference from the pairs' residuals: each
     * pair's CPU time of a kind less what its reads cost at the kind's ratio, over the kind's mean reads a pair. A
     * window's CPU time is its service threads' and the JVM's compilers' and VM threads' at their mean rate over the
     * kept pairs' spans: their work comes in bursts unrelated to the windows' kinds and does not grow with the
     * requests, so that a saturated service spreads it over more of them where it reads faster, as the process's CPU a
     * request shows. The collectors' work grows with the requests, the same a request either way, and is left out.
     */
    private void estimate() {
        double fixedJvmCpu = 0;
        double fixedJvmSpan = 0;
        for (int i = 0; i < kept; i++) {
            fixedJvmCpu += fixedJvmCpuNanos[i];
            fixedJvmSpan += fixedJvmSpanNanos[i];
        }
        double fixedJvmShare = fixedJvmSpan > 0 ? fixedJvmCpu / fixedJvmSpan : 0.0;
        double countedTime = 0;
        double countedCpu = 0;
        double counted = 0;
        double directTime = 0;
        double directCpu = 0;
        double direct = 0;
        for (int i = 0; i < kept; i++) {
            countedTime += countedNanos[i];
            countedCpu += countedCpuNanos[i] + fixedJvmShare * countedNanos[i];
            counted += countedReads[i];
            directTime += directNanos[i];
            directCpu += directCpuNanos[i] + fixedJvmShare * directNanos[i];
            direct += directReads[i];
        }
        double countedRatio = countedCpu / counted;
        double directRatio = directCpu / direct;
        double squares = 0;
        for (int i = 0; i < kept; i++) {
            double residual = (directCpuNanos[i] + fixedJvmShare * directNanos[i] - directRatio * directReads[i])
                    / (direct / kept)
                    - (countedCpuNanos[i] + fixedJvmShare * countedNanos[i] - countedRatio * countedReads[i])
                    / (counted / kept);
            squares += residual * residual;
        }
        standardErrorNanos = Math.sqrt(squares / (kept - 1) / kept);
        inServiceNanos = directRatio - countedRatio;
        cachedToDirectReadRate = (counted / countedTime) / (direct / directTime);
    }

    /**
     * The price to account a cached read at: the price in the service where it is known precisely, above or below the
     * direct call timed alone, else that call's.
     */
    double priceNanos(double directCallAloneNanos) {
        return precise() ? inServiceNanos : directCallAloneNanos;
    }

    /** Whether the price is known precisely enough to be taken. */
    boolean precise() {
        double price = inServiceNanos;
        return price > 0 && standardErrorNanos <= MOST_RELATIVE_ERROR * price;
    }

    /**
     * Whether more pairs are worth their cost: false once, after {@value #PAIRS_TO_JUDGE_REACH} kept pairs and with the
     * price not taken, {@value #PAIRS_KEPT} pairs of the same spread could not even tell the price, or the call timed
     * alone where that is more, from zero. So a fast clock, whose read costs tens of nanoseconds against a pair's noise
     * of hundreds, stops sending reads direct and counting them for a price out of its reach, while a slow one, whose
     * early pairs spread as widely around a read of hundreds, prices on.
     */
    boolean worthPricing(double directCallAloneNanos) {
        if (kept < PAIRS_TO_JUDGE_REACH || precise()) {
            return true;
        }
        double reachableError = standardErrorNanos * Math.sqrt((double) kept / PAIRS_KEPT);
        return TOLD_FROM_ZERO_ERRORS * reachableError <= Math.max(Math.abs(inServiceNanos), directCallAloneNanos);
    }

    /**
     * How many reads come while cached for each that comes while they go direct, over the kept pairs: what the rate
     * the sampling windows count, every read direct in them, is to be scaled by to count the reads the cache served;
     * 1 before {@value #FEWEST_PAIRS} pairs.
     */
    double cachedToDirectReadRate() {
        double ratio = cachedToDirectReadRate;
        return Double.isNaN(ratio) ? 1.0 : ratio;
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
