package io.clockagent.agent.internal.caching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DirectReadPriceTest {

    private static final double ALONE_NANOS = 200.0;
    private static final long COUNTED_CPU_NANOS = 40_000_000L;

    @Test
    void thePriceIsTheDifferenceOfTheWindowTypesCpuTimeAReadOverThePairs() {
        DirectReadPrice price = new DirectReadPrice();
        for (int pair = 1; pair < DirectReadPrice.FEWEST_PAIRS; pair++) {
            // Saturated: the same CPU time in both windows, fewer reads where they go direct.
            assertTrue(price.pair(COUNTED_CPU_NANOS, 10_000, COUNTED_CPU_NANOS, 8_000));
            assertTrue(Double.isNaN(price.inServiceNanos()), "no price after " + pair + " pairs");
        }

        assertTrue(price.pair(COUNTED_CPU_NANOS, 10_000, COUNTED_CPU_NANOS, 8_000));

        assertEquals(COUNTED_CPU_NANOS / 8_000.0 - COUNTED_CPU_NANOS / 10_000.0, price.inServiceNanos(), 1e-6);
        assertEquals(0.0, price.standardErrorNanos(), 1e-6);
        assertEquals(price.inServiceNanos(), price.priceNanos(ALONE_NANOS), "far above the call timed alone");
        assertEquals(DirectReadPrice.FEWEST_PAIRS, price.pairs());
    }

    @Test
    void aWindowWithTooFewReadsIsNotKept() {
        DirectReadPrice price = new DirectReadPrice();

        assertFalse(price.pair(1_000_000L, DirectReadPrice.FEWEST_READS_A_WINDOW - 1, 2_000_000L, 10_000));
        assertFalse(price.pair(1_000_000L, 10_000, 2_000_000L, DirectReadPrice.FEWEST_READS_A_WINDOW - 1));

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
        assertTrue(price.inServiceNanos() - DirectReadPrice.STANDARD_ERRORS * price.standardErrorNanos()
                < ALONE_NANOS, "but not clearly: " + price.standardErrorNanos());
        assertEquals(ALONE_NANOS, price.priceNanos(ALONE_NANOS));
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

    /** A pair of 10,000 reads each whose direct reads cost {@code nanos} more than the counted ones. */
    private static void pairAt(DirectReadPrice price, double nanos) {
        long reads = 10_000;
        long directCpuNanos = Math.round(COUNTED_CPU_NANOS + nanos * reads);
        assertTrue(price.pair(COUNTED_CPU_NANOS, reads, directCpuNanos, reads));
    }
}
