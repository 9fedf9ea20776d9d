package io.clockagent.agent.internal.caching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The sampling windows' estimate, fed window counts instead of a running ticker. */
class SampledReadsTest {

    private static final long WINDOW_NANOS = 500_000L;

    @Test
    void theRateIsTheWindowsReadsOverTheirTime() {
        SampledReads sampled = new SampledReads();
        sampled.window(500, WINDOW_NANOS, 0);
        sampled.window(1_500, WINDOW_NANOS, 1);

        assertEquals(2_000_000.0, sampled.readsPerSecond(), 1e-6);
        assertEquals(2, sampled.windows());
    }

    @Test
    void emptyWindowsAfterABurstLeaveRoomForTheBurstsTheyMayHaveMissed() {
        SampledReads sampled = new SampledReads();
        sampled.window(50_000, WINDOW_NANOS, 0);
        sampled.restart();
        for (int window = 0; window < 20; window++) {
            sampled.window(0, WINDOW_NANOS, window);
        }

        assertEquals(0.0, sampled.readsPerSecond());
        assertEquals(100_000_000.0 * SampledReads.HIDDEN_BURST_WINDOWS / 20, sampled.upperBoundReadsPerSecond(20),
                1.0, "a 100 M/s burst could hide in 3/20 of the time");
    }

    @Test
    void thePeakHalvesEveryHalfLife() {
        SampledReads sampled = new SampledReads();
        sampled.observePeak(8_000_000, 0);

        assertEquals(4_000_000.0, sampled.peakReadsPerSecond(SampledReads.PEAK_HALF_LIFE_NANOS), 1e-3);
        assertEquals(1_000_000.0, sampled.peakReadsPerSecond(3 * SampledReads.PEAK_HALF_LIFE_NANOS), 1e-3);
    }

    @Test
    void aLowerRateDoesNotLowerTheRememberedPeak() {
        SampledReads sampled = new SampledReads();
        sampled.observePeak(8_000_000, 0);
        sampled.observePeak(1_000, 1);

        assertTrue(sampled.peakReadsPerSecond(1) > 7_999_000);
    }

    @Test
    void noWindowsNoEstimate() {
        SampledReads sampled = new SampledReads();

        assertTrue(Double.isNaN(sampled.readsPerSecond()));
        assertTrue(Double.isNaN(sampled.upperBoundReadsPerSecond(0)));
    }
}
