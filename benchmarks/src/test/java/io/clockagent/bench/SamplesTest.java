package io.clockagent.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
    }

    private static Samples samples(long... nanos) {
        Samples samples = new Samples();
        for (long sample : nanos) {
            samples.add(sample);
        }
        return samples;
    }
}
