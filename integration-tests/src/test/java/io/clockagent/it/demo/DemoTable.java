package io.clockagent.it.demo;

import io.clockagent.demo.RunResult;
import io.clockagent.it.support.Clocksource;
import io.clockagent.it.support.Jdk;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The demo's figures with the agent off and on side by side, one run each, for the test log. Single runs on a shared
 * machine: the speed rows are for reading, not for asserting.
 */
public final class DemoTable {

    private static final String ROW = "  %-30s %18s %18s%n";

    private DemoTable() {
    }

    /** The table, headed by {@code title}, the JDK, the clocksource and the load; ends with a line break. */
    public static String render(String title, Jdk jdk, DemoRun off, DemoRun on) {
        StringBuilder table = new StringBuilder();
        table.append(String.format(Locale.ROOT, "%s: JDK %d, clocksource %s, %d CPUs; one run each, %s%n", title,
                jdk.featureVersion(), Clocksource.current(), Runtime.getRuntime().availableProcessors(),
                String.join(" ", DemoRun.SMALL_LOAD)));
        row(table, "", "agent off", "agent on");
        number(table, "requests/s", off, on, result -> result.number("rps"), "%,.0f");
        number(table, "latency p50 (ms)", off, on, result -> result.number("p50_us") / 1e3, "%.3f");
        number(table, "latency p99 (ms)", off, on, result -> result.number("p99_us") / 1e3, "%.3f");
        number(table, "process CPU per request (us)", off, on, result -> result.number("cpu_us_per_request"),
                "%.1f");
        number(table, "clock reads/s", off, on, result -> result.number("clock_reads_per_s"), "%,.0f");
        number(table, "ticker CPU (% of one core)", off, on, DemoTable::tickerCpuPercent, "%.2f%%");
        row(table, "business checksum", off.checksum(), on.checksum());
        row(table, "clock reads go to", off.clockClass(), on.clockClass());
        return table.toString();
    }

    /** The ticker's CPU time over the measured phase as a share of one core; NaN with the agent off. */
    private static double tickerCpuPercent(RunResult result) {
        return result.number("ticker_cpu_ms") / (result.number("measured_s") * 1e3) * 100;
    }

    private static void number(StringBuilder table, String label, DemoRun off, DemoRun on,
            ToDoubleFunction<RunResult> metric, String format) {
        row(table, label, format(format, metric.applyAsDouble(off.result())),
                format(format, metric.applyAsDouble(on.result())));
    }

    private static void row(StringBuilder table, String label, String off, String on) {
        table.append(String.format(Locale.ROOT, ROW, label, off, on));
    }

    private static String format(String format, double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, format, value) : RunResult.NOT_AVAILABLE;
    }
}
