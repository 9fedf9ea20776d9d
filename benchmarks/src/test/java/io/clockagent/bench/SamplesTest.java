package io.clockagent.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class SamplesTest {

    @Test
    void theMedianOfAnOddCountIsTheMiddleSample() {
        assertEquals(5.0, samples(9, 1, 5).medianNanos());
    }

    @Test
    void theMedianOfAnEvenCountIsTheMeanOfTheTwoMiddleSamples() {
        assertEquals(4.5, samples(10, 1, 4, 5).medianNanos());
    }

    @Test
    void minAndMaxIgnoreTheOrderOfArrival() {
        Samples samples = samples(7, 3, 11);

        assertEquals(3, samples.minNanos());
        assertEquals(11, samples.maxNanos());
    }

    @Test
    void pairedFiguresCompareSamplesOfTheSameRound() {
        Samples baseline = samples(100, 200, 400);
        Samples variant = samples(110, 260, 400);

        assertEquals(10.0, variant.pairedMedianDifferenceNanos(baseline));
        assertEquals(1.1, variant.pairedMedianRatio(baseline), 1e-12);
        assertEquals(List.of(10.0, 60.0, 0.0), variant.pairedDifferencesNanos(baseline));
        assertEquals(List.of(1.1, 1.3, 1.0), variant.pairedRatios(baseline));
    }

    @Test
    void theMediansIntervalSpansTheOrderStatisticsAroundTheMiddle() {
        List<Integer> hundred = new ArrayList<>();
        for (int value = 100; value >= 1; value--) {
            hundred.add(value);
        }

        // n = 100: ranks 50 - 9.8 and 51 + 9.8, rounded outwards, as in the tables of order-statistic intervals.
        assertArrayEquals(new double[] {40, 61}, Samples.medianInterval95(hundred));
        assertArrayEquals(new double[] {1, 6}, Samples.medianInterval95(List.of(6, 5, 4, 3, 2, 1)));
    }

    @Test
    void fewerThanSixValuesHoldNoInterval() {
        assertThrows(IllegalArgumentException.class, () -> Samples.medianInterval95(List.of(1, 2, 3, 4, 5)));
    }

    private static Samples samples(long... nanos) {
        Samples samples = new Samples();
        for (long sample : nanos) {
            samples.add(sample);
        }
        return samples;
    }
}
