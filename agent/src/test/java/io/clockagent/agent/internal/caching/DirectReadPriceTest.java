package io.clockagent.agent.internal.caching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DirectReadPriceTest {

    private static final double ALONE_NANOS = 200.0;
    private static final long COUNTED_CPU_NANOS = 40_000_000L;
    private static final long SEGMENT_NANOS = 25_000_000L;

    @Test
    void thePriceIsTheDifferenceOfTheWindowTypesCpuTimeAReadOverThePairs() {
        DirectReadPrice price = new DirectReadPrice();
        for (int pair = 1; pair < DirectReadPrice.FEWEST_PAIRS; pair++) {
            // Saturated: the same CPU time in both windows, fewer reads where they go direct.
            assertTrue(pair(price, COUNTED_CPU_NANOS, 10_000, COUNTED_CPU_NANOS, 8_000));
            assertTrue(Double.isNaN(price.inServiceNanos()), "no price after " + pair + " pairs");
        }

        assertTrue(pair(price, COUNTED_CPU_NANOS, 10_000, COUNTED_CPU_NANOS, 8_000));

        assertEquals(COUNTED_CPU_NANOS / 8_000.0 - COUNTED_CPU_NANOS / 10_000.0, price.inServiceNanos(), 1e-6);
        assertEquals(0.0, price.standardErrorNanos(), 1e-6);
        assertEquals(price.inServiceNanos(), price.priceNanos(ALONE_NANOS), "known precisely");
        assertEquals(DirectReadPrice.FEWEST_PAIRS, price.pairs());
    }

    @Test
    void aWindowWithTooFewReadsIsNotKept() {
        DirectReadPrice price = new DirectReadPrice();

        assertFalse(pair(price, 1_000_000L, DirectReadPrice.FEWEST_READS_A_KIND - 1, 2_000_000L, 10_000));
        assertFalse(pair(price, 1_000_000L, 10_000, 2_000_000L, DirectReadPrice.FEWEST_READS_A_KIND - 1));

        assertEquals(0, price.pairs());
        assertEquals(ALONE_NANOS, price.priceNanos(ALONE_NANOS));
    }

    @Test
    void pairsThatScatterAroundTheCallTimedAloneLeaveItsPrice() {
        DirectReadPrice price = new DirectReadPrice();
        // A fast clock: the two windows nearly agree, and the service's uneven work puts pairs on both sides.
        double[] scattered = {-1_500.0, 4_000.0, 300.0, 9_000.0, -6_000.0, 2_500.0, 1_200.0, -400.0, 7_000.0};
        for (double nanos : scattered) {
            pairAt(price, nanos);
        }

        assertTrue(price.inServiceNanos() > ALONE_NANOS, "the noise puts the ratio above: " + price.inServiceNanos());
        assertTrue(price.standardErrorNanos() > DirectReadPrice.MOST_RELATIVE_ERROR * price.inServiceNanos(),
                "but not precisely: " + price.standardErrorNanos());
        assertEquals(ALONE_NANOS, price.priceNanos(ALONE_NANOS));
    }

    @Test
    void aPriceThatTheKeptPairsCouldNotMakePreciseIsGivenUpAfterTheFirstPairs() {
        DirectReadPrice price = new DirectReadPrice();
        double fastCallNanos = 30.0;
        // A vDSO clock: pairs that spread by hundreds of nanoseconds around a read of tens.
        for (int pair = 0; pair < DirectReadPrice.PAIRS_TO_JUDGE_REACH; pair++) {
            assertTrue(price.worthPricing(fastCallNanos), "judged only after enough pairs: " + pair);
            pairAt(price, fastCallNanos + (pair % 2 == 0 ? 300.0 : -300.0));
        }

        assertFalse(price.worthPricing(fastCallNanos), "a standard error of " + price.standardErrorNanos()
                + " ns over 15 pairs, about half that over 63, which would not tell a price of 50 ns from zero");
    }

    @Test
    void aPriceThatTheKeptPairsCouldMakePreciseIsPricedOn() {
        DirectReadPrice price = new DirectReadPrice();
        // A slow clock early on: pairs spread as widely, not yet precise, but 63 of them would make it so.
        for (int pair = 0; pair < DirectReadPrice.PAIRS_TO_JUDGE_REACH; pair++) {
            pairAt(price, 300.0 + (pair % 2 == 0 ? 300.0 : -300.0));
        }

        assertEquals(ALONE_NANOS, price.priceNanos(ALONE_NANOS), "not precise yet: " + price.standardErrorNanos());
        assertTrue(price.worthPricing(ALONE_NANOS), "told from zero over 63 pairs: a standard error of "
                + price.standardErrorNanos() * Math.sqrt(15.0 / 63));
    }

    @Test
    void thePriceIsOfTheLastPairsKept() {
        DirectReadPrice price = new DirectReadPrice();
        for (int pair = 0; pair < DirectReadPrice.PAIRS_KEPT; pair++) {
            pairAt(price, 100.0);
        }
        for (int pair = 0; pair < DirectReadPrice.PAIRS_KEPT; pair++) {
            pairAt(price, 900.0);
        }

        assertEquals(900.0, price.inServiceNanos(), 1e-6);
        assertEquals(2L * DirectReadPrice.PAIRS_KEPT, price.pairs());
    }

    @Test
    void aPriceKnownPreciselyIsTakenBelowTheCallTimedAloneTooButNeverAtOrBelowZero() {
        DirectReadPrice below = new DirectReadPrice();
        DirectReadPrice none = new DirectReadPrice();
        for (int pair = 0; pair < DirectReadPrice.FEWEST_PAIRS; pair++) {
            pairAt(below, pair % 2 == 0 ? 140.0 : 160.0);
            pairAt(none, pair % 2 == 0 ? -10.0 : 10.0);
        }

        assertEquals(150.0, below.priceNanos(ALONE_NANOS), 2.0, "within a few nanoseconds of 150");
        assertEquals(ALONE_NANOS, none.priceNanos(ALONE_NANOS), "about zero: " + none.inServiceNanos());
    }

    @Test
    void aPairSumsItsSegmentsOfEachKind() {
        DirectReadPrice price = new DirectReadPrice();
        for (int pair = 0; pair < DirectReadPrice.FEWEST_PAIRS; pair++) {
            // Three segments of each kind, whose reads and CPU time differ, but not their sums' ratios: 4,000 ns a
            // counted read, 5,000 a direct one.
            price.countedSegment(SEGMENT_NANOS, 4_000_000L, 1_000);
            price.directSegment(SEGMENT_NANOS, 1_000_000L, 200);
            price.countedSegment(SEGMENT_NANOS, 12_000_000L, 3_000);
            price.directSegment(SEGMENT_NANOS, 9_000_000L, 1_800);
            price.countedSegment(SEGMENT_NANOS, 8_000_000L, 2_000);
            price.directSegment(SEGMENT_NANOS, 5_000_000L, 1_000);
            assertTrue(price.endPair());
        }

        assertEquals(1_000.0, price.inServiceNanos(), 1e-6);
        assertEquals(6_000.0 / 3_000.0, price.cachedToDirectReadRate(), 1e-9, "reads a nanosecond, cached over direct");
    }

    @Test
    void theJvmsCompilersCpuCountsInEveryWindowAtItsMeanRateOverThePairs() {
        DirectReadPrice price = new DirectReadPrice();
        for (int pair = 0; pair < DirectReadPrice.FEWEST_PAIRS; pair++) {
            // A compile of 1.2 s of CPU over the first pair's 2 s, none after: 0.12 of a core over the five 2 s spans.
            price.fixedJvmSpent(pair == 0 ? 1_200_000_000L : 0L, 2_000_000_000L);
            assertTrue(pair(price, COUNTED_CPU_NANOS, 10_000, COUNTED_CPU_NANOS, 8_000));
        }

        double windowCpuNanos = COUNTED_CPU_NANOS + 0.12 * SEGMENT_NANOS;
        assertEquals(windowCpuNanos / 8_000 - windowCpuNanos / 10_000, price.inServiceNanos(), 1e-6);
        assertEquals(0.0, price.standardErrorNanos(), 1e-6, "the compile lands in no window");
    }

    @Test
    void aDroppedPairLeavesNoSegmentToTheNext() {
        DirectReadPrice price = new DirectReadPrice();
        price.countedSegment(SEGMENT_NANOS, 1_000_000_000L, 1_000);
        price.dropPair();
        for (int pair = 0; pair < DirectReadPrice.FEWEST_PAIRS; pair++) {
            pairAt(price, 700.0);
        }

        assertEquals(700.0, price.inServiceNanos(), 1e-6);
        assertEquals(DirectReadPrice.FEWEST_PAIRS, price.pairs());
    }

    @Test
    void readsComeAtTheSameRateBothWaysBeforeThePairsTellOtherwise() {
        DirectReadPrice price = new DirectReadPrice();
        for (int pair = 1; pair < DirectReadPrice.FEWEST_PAIRS; pair++) {
            assertTrue(pair(price, COUNTED_CPU_NANOS, 10_000, COUNTED_CPU_NANOS, 8_000));
        }
        assertEquals(1.0, price.cachedToDirectReadRate());

        assertTrue(pair(price, COUNTED_CPU_NANOS, 10_000, COUNTED_CPU_NANOS, 8_000));

        assertEquals(10_000.0 / 8_000.0, price.cachedToDirectReadRate(), 1e-9);
    }

    /** A pair of one segment of each kind, as long. */
    private static boolean pair(DirectReadPrice price, long countedCpuNanos, long countedReads, long directCpuNanos,
            long directReads) {
        price.countedSegment(SEGMENT_NANOS, countedCpuNanos, countedReads);
        price.directSegment(SEGMENT_NANOS, directCpuNanos, directReads);
        return price.endPair();
    }

    /** A pair of 10,000 reads each whose direct reads cost {@code nanos} more than the counted ones. */
    private static void pairAt(DirectReadPrice price, double nanos) {
        long reads = 10_000;
        long directCpuNanos = Math.round(COUNTED_CPU_NANOS + nanos * reads);
        assertTrue(pair(price, COUNTED_CPU_NANOS, reads, directCpuNanos, reads));
    }
}
