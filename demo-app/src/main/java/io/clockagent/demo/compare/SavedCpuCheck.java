package io.clockagent.demo.compare;

import io.clockagent.demo.RunResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Holds the agent's own figure of the CPU it saved a second (its MBean's net total across the measured requests, over
 * their time) to the measurement: where it cached, the median of its figures to within the rounds' spread of the
 * difference in process CPU between the runs without and with it; where it never cached, to about zero, its ticker's
 * small cost below it, never a saving. The spread is wide, as each JVM serves at its own pace, and the agent's figure
 * is its own measure within one JVM, of the reads it served and the price of a direct read in the service.
 * Stateless.
 */
final class SavedCpuCheck {

    /** Fewer rounds give no spread to judge agreement by. */
    static final int ROUNDS_TO_JUDGE = 3;
    /**
     * How far below zero a run that never cached may read, at the least: its ticker only looks at the count of direct
     * reads, a few times a second, and the totals move between the ticker's accounts at the last interval's rates.
     */
    static final double MOST_DIRECT_COST_MILLIS_PER_SECOND = 1.0;
    /** Above zero, where no read was served from the cache: rounding of the printed figure alone. */
    static final double MOST_ROUNDING_MILLIS_PER_SECOND = 0.001;

    private SavedCpuCheck() {
    }

    /** The line that puts the two figures side by side, with their spread across rounds. */
    static String describe(List<RunResult> off, List<RunResult> on) {
        double[] measured = ComparisonTable.measuredSavedCpuMillisPerSecond(off, on);
        double[] agent = on.stream().filter(result -> result != null)
                .mapToDouble(result -> result.number("agent_saved_cpu_ms_per_s")).filter(Double::isFinite).sorted()
                .toArray();
        return String.format(Locale.ROOT, "CPU saved a second, net of the ticker: the agent's own figure %s ms"
                + " (rounds %s), the measured difference in process CPU %s ms (rounds %s); it cached in %d of %d"
                + " rounds", format(ComparisonTable.median(agent)), range(agent),
                format(ComparisonTable.median(measured)), range(measured), figuresWhereItCached(on).length,
                on.size());
    }

    /** What disagrees, each as a line; empty where the figures hold. Results go round by round, null for none. */
    static List<String> problems(List<RunResult> off, List<RunResult> on) {
        List<String> problems = new ArrayList<>();
        for (int round = 0; round < on.size(); round++) {
            RunResult result = on.get(round);
            if (result == null || !"false".equals(result.text("agent_cached_during_run"))) {
                continue;
            }
            double saved = result.number("agent_saved_cpu_ms_per_s");
            double tickerMillisPerSecond = result.number("ticker_cpu_ms") / result.number("measured_s");
            double floor = -Math.max(MOST_DIRECT_COST_MILLIS_PER_SECOND,
                    Double.isFinite(tickerMillisPerSecond) ? 2 * tickerMillisPerSecond : 0);
            if (!(saved <= MOST_ROUNDING_MILLIS_PER_SECOND && saved >= floor)) {
                problems.add(String.format(Locale.ROOT, "round %d: the agent never cached, yet says it saved %s ms"
                        + " of CPU a second, where about zero (%.3f to 0, its ticker's looks) is what it can have",
                        round + 1, format(saved), floor));
            }
        }
        double[] agent = figuresWhereItCached(on);
        List<RunResult> cachedOff = new ArrayList<>();
        List<RunResult> cachedOn = new ArrayList<>();
        for (int round = 0; round < Math.min(off.size(), on.size()); round++) {
            RunResult result = on.get(round);
            if (result != null && "true".equals(result.text("agent_cached_during_run"))) {
                cachedOff.add(off.get(round));
                cachedOn.add(result);
            }
        }
        double[] measured = ComparisonTable.measuredSavedCpuMillisPerSecond(cachedOff, cachedOn);
        if (measured.length >= ROUNDS_TO_JUDGE && agent.length >= ROUNDS_TO_JUDGE) {
            double agentMedian = ComparisonTable.median(agent);
            if (!(agentMedian >= measured[0] && agentMedian <= measured[measured.length - 1])) {
                problems.add(String.format(Locale.ROOT, "the agent's saved CPU a second, %s ms, lies outside the"
                        + " rounds' spread of the difference in process CPU measured (%s)", format(agentMedian),
                        range(measured)));
            }
        }
        return problems;
    }

    /** Whether the agreement was judged, or why not, for the runner to say. */
    static String judged(List<RunResult> on) {
        int cached = figuresWhereItCached(on).length;
        return cached >= ROUNDS_TO_JUDGE ? "the agent's figure judged against the rounds' spread of the measured one"
                : "the agent's figure against the measured one not judged: it cached in " + cached + " rounds, and"
                        + " fewer than " + ROUNDS_TO_JUDGE + " give no spread to judge by";
    }

    /** The agent's figures of the runs where it cached during the measured requests, sorted. */
    private static double[] figuresWhereItCached(List<RunResult> on) {
        return on.stream().filter(result -> result != null && "true".equals(result.text("agent_cached_during_run")))
                .mapToDouble(result -> result.number("agent_saved_cpu_ms_per_s")).filter(Double::isFinite).sorted()
                .toArray();
    }

    private static String range(double[] sorted) {
        return sorted.length == 0 ? RunResult.NOT_AVAILABLE
                : format(sorted[0]) + " .. " + format(sorted[sorted.length - 1]);
    }

    private static String format(double millis) {
        return Double.isFinite(millis) ? String.format(Locale.ROOT, "%.2f", millis) : RunResult.NOT_AVAILABLE;
    }
}
