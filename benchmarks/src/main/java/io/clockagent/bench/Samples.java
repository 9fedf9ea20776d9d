package io.clockagent.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Repeated measurements of one variant, in nanoseconds, in the order of the rounds that took them. Not thread-safe: one runner thread fills and reads it. */
final class Samples {

    private final List<Long> nanos = new ArrayList<>();

    void add(long sampleNanos) {
        nanos.add(sampleNanos);
    }

    int count() {
        return nanos.size();
    }

    /** The middle sample; for an even count, the mean of the two middle ones. */
    double medianNanos() {
        return median(nanos);
    }

    /**
     * The median of the per-round differences {@code this[i] - baseline[i]}, where sample {@code i} of both was taken
     * in the same round: a slow phase of a noisy machine then cancels out instead of landing in one variant.
     */
    double pairedMedianDifferenceNanos(Samples baseline) {
        return median(pairedDifferencesNanos(baseline));
    }

    /** The median of the per-round ratios {@code this[i] / baseline[i]}; see {@link #pairedMedianDifferenceNanos}. */
    double pairedMedianRatio(Samples baseline) {
        return median(pairedRatios(baseline));
    }

    /** The per-round differences {@code this[i] - baseline[i]}, in round order. */
    List<Double> pairedDifferencesNanos(Samples baseline) {
        List<Double> differences = new ArrayList<>();
        for (int i = 0; i < paired(baseline); i++) {
            differences.add((double) (nanos.get(i) - baseline.nanos.get(i)));
        }
        return differences;
    }

    /** The per-round ratios {@code this[i] / baseline[i]}, in round order. */
    List<Double> pairedRatios(Samples baseline) {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < paired(baseline); i++) {
            ratios.add((double) nanos.get(i) / baseline.nanos.get(i));
        }
        return ratios;
    }

    private int paired(Samples baseline) {
        if (baseline.count() != count()) {
            throw new IllegalArgumentException(count() + " samples cannot pair with " + baseline.count());
        }
        return count();
    }

    /** The middle value; for an even count, the mean of the two middle ones. */
    static double median(List<? extends Number> values) {
        if (values.isEmpty()) {
            throw new IllegalStateException("no samples");
        }
        List<Double> sorted = new ArrayList<>();
        for (Number value : values) {
            sorted.add(value.doubleValue());
        }
        Collections.sort(sorted);
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2.0;
    }

    /**
     * A distribution-free 95 % confidence interval of the median of {@code values}: the order statistics at ranks
     * {@code n/2 ∓ 0.98·√n}, with no assumption about the spread's shape (a noisy host's is skewed). Needs at least six
     * values, below which no two ranks hold 95 %.
     *
     * @return {@code [low, high]}
     */
    static double[] medianInterval95(List<? extends Number> values) {
        if (values.size() < 6) {
            throw new IllegalArgumentException(values.size() + " values hold no 95 % interval of their median; it"
                    + " takes at least 6");
        }
        List<Double> sorted = new ArrayList<>();
        for (Number value : values) {
            sorted.add(value.doubleValue());
        }
        Collections.sort(sorted);
        int n = sorted.size();
        double halfWidthRanks = 0.98 * Math.sqrt(n);
        int lowRank = Math.max(1, (int) Math.floor(n / 2.0 - halfWidthRanks));
        int highRank = Math.min(n, (int) Math.ceil(n / 2.0 + 1 + halfWidthRanks));
        return new double[] {sorted.get(lowRank - 1), sorted.get(highRank - 1)};
    }

    long minNanos() {
        return Collections.min(nanos);
    }

    long maxNanos() {
        return Collections.max(nanos);
    }
}
