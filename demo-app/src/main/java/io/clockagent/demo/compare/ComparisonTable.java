package io.clockagent.demo.compare;

import io.clockagent.demo.RunResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/** Renders the side-by-side table of medians across rounds, agent off against agent on. Stateless. */
final class ComparisonTable {

    /** Shown instead of a value that differs between rounds that should agree. */
    static final String MIXED = "MIXED";

    private static final String ROW = "%-38s %18s %18s %12s%n";
    /** The multiple of its break-even at which {@code cache=auto} starts caching. */
    static final double CACHING_STARTS_AT = 1.5;

    private ComparisonTable() {
    }

    static String render(List<ForkedRun> off, List<ForkedRun> on) {
        List<RunResult> offResults = results(off);
        List<RunResult> onResults = results(on);
        StringBuilder table = new StringBuilder();
        table.append(String.format(Locale.ROOT, ROW, "median of " + Math.max(off.size(), on.size()) + " rounds",
                AgentMode.OFF.label(), AgentMode.ON.label(), "on vs off"));
        table.append(String.format(Locale.ROOT, ROW, "-".repeat(38), "-".repeat(18), "-".repeat(18), "-".repeat(12)));
        numberRow(table, "requests/s", offResults, onResults, r -> r.number("rps"), "%,.0f", true);
        numberRow(table, "latency p50 (ms)", offResults, onResults, r -> r.number("p50_us") / 1e3, "%.3f", true);
        numberRow(table, "latency p99 (ms)", offResults, onResults, r -> r.number("p99_us") / 1e3, "%.3f", true);
        numberRow(table, "process CPU per request (us)", offResults, onResults, r -> r.number("cpu_us_per_request"),
                "%.1f", true);
        numberRow(table, "clock reads/s (service code)", offResults, onResults, r -> r.number("clock_reads_per_s"),
                "%,.0f", true);
        numberRow(table, "clock reads per request", offResults, onResults,
                r -> r.number("clock_reads_per_request"), "%.2f", false);
        numberRow(table, "ticker CPU (% of one core)", offResults, onResults, ComparisonTable::tickerCpuPercent,
                "%.2f%%", false);
        numberRow(table, "cache hit rate (%)", offResults, onResults, r -> r.number("cache_hit_pct"), "%.2f", false);
        textRow(table, "agent caching at the end (rounds)", RunResult.NOT_AVAILABLE, cachingRounds(onResults), "");
        numberRow(table, "agent's estimate of reads/s", offResults, onResults, r -> r.number("agent_reads_per_s"),
                "%,.0f", false);
        numberRow(table, "agent's break-even reads/s", offResults, onResults,
                r -> r.number("agent_break_even_per_s"), "%,.0f", false);
        numberRow(table, "agent's cost of a direct read alone (ns)", offResults, onResults,
                r -> r.number("agent_direct_read_ns"), "%.1f", false);
        numberRow(table, "  and in the service (ns)", offResults, onResults,
                r -> r.number("agent_direct_read_in_service_ns"), "%.1f", false);
        numberRow(table, "  what it takes a cached read to save (ns)", offResults, onResults,
                r -> r.number("agent_saved_read_ns"), "%.1f", false);
        textRow(table, "CPU saved a second (ms), measured", RunResult.NOT_AVAILABLE,
                format("%.2f", median(measuredSavedCpuMillisPerSecond(ForkedRun.roundResults(off),
                        ForkedRun.roundResults(on)))), "");
        numberRow(table, "CPU saved a second (ms), agent's own", offResults, onResults,
                r -> r.number("agent_saved_cpu_ms_per_s"), "%.2f", false);
        textRow(table, "throttled / deadlines missed (all)", sumPair(offResults, "throttled", "deadline_missed"),
                sumPair(onResults, "throttled", "deadline_missed"), "");
        String offChecksum = common(offResults, "checksum");
        String onChecksum = common(onResults, "checksum");
        textRow(table, "business checksum (all rounds)", offChecksum, onChecksum,
                offChecksum.equals(onChecksum) && !offChecksum.equals(MIXED) ? "identical" : "DIFFERENT");
        if (anyBurst(offResults) || anyBurst(onResults)) {
            String tasks = common(concat(offResults, onResults), "burst_tasks");
            table.append(String.format(Locale.ROOT, "virtual-thread burst, %s tasks reading the clock around a"
                    + " 10 ms sleep:%n", tasks));
            numberRow(table, "  burst wall time (ms)", offResults, onResults, r -> r.number("burst_ms"), "%,.1f", true);
            numberRow(table, "  clock behind real, p99 (ms)", offResults, onResults,
                    r -> r.number("burst_lag_p99_ms"), "%.0f", false);
            textRow(table, "  clock behind real, worst (ms)", worst(offResults, "burst_lag_max_ms"),
                    worst(onResults, "burst_lag_max_ms"), "");
            textRow(table, "  stale reads (all rounds)", sum(offResults, "burst_stale"), sum(onResults, "burst_stale"),
                    "");
            numberRow(table, "  ticker CPU during burst (ms)", offResults, onResults,
                    r -> r.number("burst_ticker_cpu_ms"), "%.2f", false);
            textRow(table, "  ticker alive after burst", RunResult.NOT_AVAILABLE, common(onResults, "burst_ticker_alive"),
                    "");
        }
        return table.toString();
    }

    /**
     * What the agent decided in the runs with it on, and why, from its own figures: the medians of the read rate it
     * estimated, its break-even and its cost of a direct read. It starts caching at {@value #CACHING_STARTS_AT}
     * times the break-even and stops below it, so a rate between the two keeps whichever it had.
     */
    static String agentVerdict(List<RunResult> results) {
        double readsPerSecond = median(results, r -> r.number("agent_reads_per_s"));
        double breakEven = median(results, r -> r.number("agent_break_even_per_s"));
        double directReadNanos = median(results, r -> r.number("agent_direct_read_ns"));
        long caching = cachingCount(results);
        long decided = decidedCount(results);
        String verdict = String.format(Locale.ROOT, "the agent's verdict: caching at the end of %s rounds. It"
                + " estimated %s clock reads a second (median) against a break-even of %s, as a direct read costs %s"
                + " ns here; it starts caching at %s and stops below the break-even",
                roundsOf(caching, decided), format("%,.0f", readsPerSecond), format("%,.0f", breakEven),
                format("%.1f", directReadNanos), format("%,.0f", CACHING_STARTS_AT * breakEven));
        if (decided == 0) {
            return verdict;
        }
        return verdict + (caching == decided ? ". So it cached, and the table shows what that saves."
                : caching == 0 ? ". So it left the reads on the direct clock, where caching would not pay, and the"
                        + " service ran as it does without the agent."
                : ". The rate is near the threshold, so the rounds differ.");
    }

    /**
     * What reading the clock costs a request without the agent: its reads per request times what the agent takes a
     * direct read to cost the service. Caching can save no more than that, less the ticker's own CPU.
     */
    static String clockShareOfRequest(List<RunResult> off, List<RunResult> on) {
        double readsPerRequest = median(off, r -> r.number("clock_reads_per_request"));
        double directReadNanos = median(on, r -> r.number("agent_saved_read_ns"));
        double cpuMicrosPerRequest = median(off, r -> r.number("cpu_us_per_request"));
        return String.format(Locale.ROOT, "reading the clock takes about %s us of the %s us of process CPU a request"
                + " costs without the agent (%s reads of %s ns): the most caching can save, less the ticker's CPU",
                format("%.1f", readsPerRequest * directReadNanos / 1e3), format("%.1f", cpuMicrosPerRequest),
                format("%.1f", readsPerRequest), format("%.1f", directReadNanos));
    }

    /**
     * Round by round, the CPU the agent saved a second as the process measures it: the process CPU a request cost
     * without the agent less what it cost with it, at the rate the run with it served requests. Rounds missing either
     * run are left out.
     */
    static double[] measuredSavedCpuMillisPerSecond(List<RunResult> off, List<RunResult> on) {
        List<Double> saved = new ArrayList<>();
        for (int round = 0; round < Math.min(off.size(), on.size()); round++) {
            RunResult without = off.get(round);
            RunResult with = on.get(round);
            if (without != null && with != null) {
                saved.add((without.number("cpu_us_per_request") - with.number("cpu_us_per_request"))
                        * with.number("rps") / 1e3);
            }
        }
        return saved.stream().mapToDouble(Double::doubleValue).filter(Double::isFinite).sorted().toArray();
    }

    /** The median of sorted values, or NaN if there are none. */
    static double median(double[] sorted) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    private static String cachingRounds(List<RunResult> results) {
        return roundsOf(cachingCount(results), decidedCount(results));
    }

    private static String roundsOf(long caching, long decided) {
        return decided == 0 ? RunResult.NOT_AVAILABLE : caching + " of " + decided;
    }

    private static long cachingCount(List<RunResult> results) {
        return results.stream().filter(r -> "true".equals(r.text("agent_caching"))).count();
    }

    /** The runs whose agent gave a verdict at all. */
    private static long decidedCount(List<RunResult> results) {
        return results.stream().filter(r -> !RunResult.NOT_AVAILABLE.equals(r.text("agent_caching"))).count();
    }

    /** The ticker's CPU over the measured phase as a share of one core. */
    static double tickerCpuPercent(RunResult result) {
        return result.number("ticker_cpu_ms") / (result.number("measured_s") * 1e3) * 100;
    }

    /** The median of the finite values, or NaN if there are none. */
    static double median(List<RunResult> results, ToDoubleFunction<RunResult> metric) {
        return median(results.stream().mapToDouble(metric).filter(Double::isFinite).sorted().toArray());
    }

    static double[] range(List<RunResult> results, ToDoubleFunction<RunResult> metric) {
        double[] values = results.stream().mapToDouble(metric).filter(Double::isFinite).sorted().toArray();
        return values.length == 0 ? new double[] {Double.NaN, Double.NaN}
                : new double[] {values[0], values[values.length - 1]};
    }

    private static void numberRow(StringBuilder table, String label, List<RunResult> off, List<RunResult> on,
            ToDoubleFunction<RunResult> metric, String format, boolean showChange) {
        double offMedian = median(off, metric);
        double onMedian = median(on, metric);
        String change = showChange && Double.isFinite(offMedian) && Double.isFinite(onMedian) && offMedian != 0
                ? String.format(Locale.ROOT, "%+.1f%%", (onMedian - offMedian) / offMedian * 100) : "";
        textRow(table, label, format(format, offMedian), format(format, onMedian), change);
    }

    private static void textRow(StringBuilder table, String label, String off, String on, String change) {
        table.append(String.format(Locale.ROOT, ROW, label, off, on, change));
    }

    private static String format(String format, double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, format, value) : RunResult.NOT_AVAILABLE;
    }

    private static String common(List<RunResult> results, String key) {
        Set<String> values = new LinkedHashSet<>();
        results.forEach(result -> values.add(result.text(key)));
        return values.isEmpty() ? RunResult.NOT_AVAILABLE : values.size() == 1 ? values.iterator().next() : MIXED;
    }

    private static String sum(List<RunResult> results, String key) {
        double total = results.stream().mapToDouble(result -> result.number(key)).filter(Double::isFinite).sum();
        return results.stream().anyMatch(result -> Double.isFinite(result.number(key)))
                ? String.format(Locale.ROOT, "%,.0f", total) : RunResult.NOT_AVAILABLE;
    }

    private static String sumPair(List<RunResult> results, String first, String second) {
        return sum(results, first) + " / " + sum(results, second);
    }

    private static String worst(List<RunResult> results, String key) {
        return format("%.0f", range(results, result -> result.number(key))[1]);
    }

    private static boolean anyBurst(List<RunResult> results) {
        return results.stream().anyMatch(result -> Double.isFinite(result.number("burst_tasks")));
    }

    private static List<RunResult> results(List<ForkedRun> runs) {
        List<RunResult> results = new ArrayList<>();
        for (ForkedRun run : runs) {
            if (run.result() != null) {
                results.add(run.result());
            }
        }
        return results;
    }

    private static List<RunResult> concat(List<RunResult> first, List<RunResult> second) {
        List<RunResult> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    static String describeRange(double[] range, String format) {
        return Arrays.stream(range).allMatch(Double::isFinite)
                ? format(format, range[0]) + " .. " + format(format, range[1]) : RunResult.NOT_AVAILABLE;
    }
}
