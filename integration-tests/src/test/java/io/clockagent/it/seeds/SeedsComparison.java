package io.clockagent.it.seeds;

import io.clockagent.it.support.Clocksource;
import io.clockagent.it.support.Jdk;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * The seeds experiment run with the agent off and on, several times each: the medians side by side, as a table for
 * the test log. Immutable.
 */
public final class SeedsComparison {

    private static final String ROW = "  %-44s %12s %12s %10s%n";

    private final SeedsExperiment experiment;
    private final Jdk jdk;
    private final List<SeedsRun> off;
    private final List<SeedsRun> on;

    SeedsComparison(SeedsExperiment experiment, Jdk jdk, List<SeedsRun> off, List<SeedsRun> on) {
        this.experiment = experiment;
        this.jdk = jdk;
        this.off = List.copyOf(off);
        this.on = List.copyOf(on);
    }

    /** The median single-thread loop time with the agent off, divided by the same with it on. */
    public double singleThreadSpeedup() {
        return median(off, SeedsRun::singleThreadMillis) / median(on, SeedsRun::singleThreadMillis);
    }

    /** The table, headed by {@code title}, the JDK and the machine's clocksource; ends with a line break. */
    public String table(String title) {
        StringBuilder table = new StringBuilder();
        table.append(String.format(Locale.ROOT, "%s: JDK %d, clocksource %s, %d CPUs; %d forks each, alternating"
                + " off, on; medians over forks%n", title, jdk.featureVersion(), Clocksource.current(),
                Runtime.getRuntime().availableProcessors(), off.size()));
        row(table, "", "agent off", "agent on", "off/on");
        numberRow(table, String.format(Locale.ROOT, "1 thread, %,d calls: total (ms)", experiment.calls()),
                SeedsRun::singleThreadMillis, "%.1f");
        row(table, "  ns per call", format("%.2f", median(off, SeedsRun::nanosPerCall)),
                format("%.2f", median(on, SeedsRun::nanosPerCall)), "");
        if (experiment.threads() > 0) {
            String threads = String.format(Locale.ROOT, "%d threads x %,d calls", experiment.threads(),
                    experiment.callsPerThread());
            numberRow(table, threads + ": wall (ms)", SeedsRun::threadsWallMillis, "%.1f");
            numberRow(table, "  thread time, median (ms)", SeedsRun::threadMedianMillis, "%.2f");
            numberRow(table, "  thread time, max (ms)", SeedsRun::threadMaxMillis, "%.2f");
        }
        table.append(String.format(Locale.ROOT, "  each fork's 1-thread median (ms): off %s; on %s%n",
                perFork(off), perFork(on)));
        return table.toString();
    }

    private void numberRow(StringBuilder table, String label, ToDoubleFunction<SeedsRun> metric, String format) {
        double offMedian = median(off, metric);
        double onMedian = median(on, metric);
        row(table, label, format(format, offMedian), format(format, onMedian),
                format("%.1fx", offMedian / onMedian));
    }

    private static void row(StringBuilder table, String label, String off, String on, String ratio) {
        table.append(String.format(Locale.ROOT, ROW, label, off, on, ratio));
    }

    private static String perFork(List<SeedsRun> runs) {
        return runs.stream().map(run -> format("%.1f", run.singleThreadMillis())).collect(Collectors.joining(" "));
    }

    private static double median(List<SeedsRun> runs, ToDoubleFunction<SeedsRun> metric) {
        return SeedsRun.median(runs.stream().mapToDouble(metric).toArray());
    }

    private static String format(String format, double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, format, value) : "n/a";
    }

    @Override
    public String toString() {
        return "off " + Arrays.toString(off.stream().mapToDouble(SeedsRun::singleThreadMillis).toArray()) + " ms, on "
                + Arrays.toString(on.stream().mapToDouble(SeedsRun::singleThreadMillis).toArray()) + " ms";
    }
}
