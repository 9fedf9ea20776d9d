package io.clockagent.bench.fidelity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LagHistogramTest {

    @Test
    void aSampleIsClassifiedByHowFarTheCachedValueLagsTheRealOne() {
        LagHistogram histogram = new LagHistogram();
        histogram.add(100, 100, 100);
        histogram.add(100, 99, 100);
        histogram.add(100, 98, 100);
        histogram.add(100, 90, 100);

        assertEquals(1, histogram.exact());
        assertEquals(1, histogram.oneBehind());
        assertEquals(2, histogram.twoOrMoreBehind());
        assertEquals(0, histogram.ahead());
        assertEquals(10, histogram.maxLagMillis());
        assertEquals(4, histogram.kept());
    }

    @Test
    void aSampleWhoseRealReadsDisagreeIsDiscarded() {
        LagHistogram histogram = new LagHistogram();
        histogram.add(100, 100, 101);

        assertEquals(0, histogram.kept());
        assertEquals(1, histogram.discarded());
    }

    @Test
    void aCachedValueAheadOfTheRealClockIsCountedApartAndNeverAsALag() {
        LagHistogram histogram = new LagHistogram();
        histogram.add(100, 101, 100);

        assertEquals(1, histogram.ahead());
        assertEquals(0, histogram.exact());
        assertEquals(0, histogram.maxLagMillis());
    }
}
