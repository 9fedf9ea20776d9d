package io.clockagent.agent.internal.caching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DirectReadPriceTest {

    private static final double ALONE_NANOS = 200.0;

    @Test
    void aPairPricesADirectReadAsTheDifferenceInProcessCpuTimeARead() {
        DirectReadPrice price = new DirectReadPrice();

        // Saturated: the same CPU time in both windows, fewer reads where they go direct.
        assertTrue(price.pair(40_000_000L, 10_000, 40_000_000L, 8_000));

        assertEquals(40_000_000.0 / 8_000 - 40_000_000.0 / 10_000, price.medianNanos(), 1e-9);
        assertEquals(1, price.pairs());
    }

    @Test
    void aWindowWithTooFewReadsIsNotKept() {
        DirectReadPrice price = new DirectReadPrice();

        assertFalse(price.pair(1_000_000L, DirectReadPrice.FEWEST_READS_A_WINDOW - 1, 2_000_000L, 10_000));
        assertFalse(price.pair(1_000_000L, 10_000, 2_000_000L, DirectReadPrice.FEWEST_READS_A_WINDOW - 1));

        assertEquals(0, price.pairs());
        assertTrue(Double.isNaN(price.medianNanos()));
        assertEquals(ALONE_NANOS, price.priceNanos(ALONE_NANOS));
    }

    @Test
    void theMedianReplacesTheCallTimedAloneOnlyOnceEnoughPairsShowItHigher() {
        DirectReadPrice price = new DirectReadPrice();
        for (int pair = 1; pair < DirectReadPrice.FEWEST_PAIRS; pair++) {
            pairAt(price, 600.0);
            assertEquals(ALONE_NANOS, price.priceNanos(ALONE_NANOS), "no bound after " + pair + " pairs");
        }

        pairAt(price, 600.0);

        assertEquals(600.0, price.priceNanos(ALONE_NANOS), 1e-6);
    }

    @Test
    void pairsThatScatterAroundTheCallTimedAloneLeaveItsPrice() {
        DirectReadPrice price = new DirectReadPrice();
        // A fast clock: the two windows nearly agree, and noise puts pairs on both sides.
        double[] scattered = {-150.0, 400.0, 30.0, 900.0, -600.0, 250.0, 120.0, -40.0, 700.0};
        for (double nanos : scattered) {
            pairAt(price, nanos);
        }

        assertEquals(120.0, price.medianNanos(), 1e-6);
        assertEquals(ALONE_NANOS, price.priceNanos(ALONE_NANOS));
    }

    @Test
    void theMedianIsOfTheLastPairsKept() {
        DirectReadPrice price = new DirectReadPrice();
        for (int pair = 0; pair < DirectReadPrice.PAIRS_KEPT; pair++) {
            pairAt(price, 100.0);
        }
        for (int pair = 0; pair <= DirectReadPrice.PAIRS_KEPT / 2; pair++) {
            pairAt(price, 900.0);
        }

        assertEquals(900.0, price.medianNanos(), 1e-6);
        assertEquals(DirectReadPrice.PAIRS_KEPT + DirectReadPrice.PAIRS_KEPT / 2 + 1, price.pairs());
    }

    /** A pair of 10,000 reads each whose direct reads cost {@code nanos} more than the counted ones. */
    private static void pairAt(DirectReadPrice price, double nanos) {
        long reads = 10_000;
        long countedCpuNanos = 40_000_000L;
        long directCpuNanos = Math.round(countedCpuNanos + nanos * reads);
        assertTrue(price.pair(countedCpuNanos, reads, directCpuNanos, reads));
    }
}
