package io.clockagent.bench;

import io.clockagent.bench.clock.ClockReadBenchmark;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormat;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs {@link ClockReadBenchmark} in two variants that differ only in their JVM arguments, without the agent and with
 * {@code -javaagent:clock-agent.jar=include=io.clockagent.bench.clock}, each with 1 and with 2 threads, running the two
 * variants of each figure back to back so that both see the same machine, and prints the comparison against the
 * budget. Forks, warmup and
 * measurement come from the benchmark's annotations. JMH's own log goes to {@code target/jmh-jdkNN.log}.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.clockagent.bench.ClockReadComparison [--quick]}; the forks run on the
 * JVM that runs this class. {@code --quick} is a smoke test of the wiring whose figures mean nothing.
 */
public final class ClockReadComparison {

    static final double BUDGET_MAX_NANOS = 1.0;
    static final double BUDGET_MIN_SPEEDUP = 30.0;
    private static final int[] THREAD_COUNTS = {1, 2};
    private static final String MILLIS = "currentTimeMillis";
    private static final String NANOS = "nanoTime";

    private ClockReadComparison() {
    }

    public static void main(String[] args) throws IOException, RunnerException {
        boolean quick = JmhRuns.quick(args);
        BenchmarkFiles files = BenchmarkFiles.locate();
        String agentArgument = "-javaagent:" + files.agentJar() + "=include="
                + ClockReadBenchmark.class.getPackageName();
        Map<String, Result<?>> scores = new LinkedHashMap<>();
        try (PrintStream logStream = JmhRuns.openLog(files, "jmh")) {
            System.out.println("agent variant: " + agentArgument);
            System.out.println("before: " + Machine.loadAverage());
            OutputFormat jmhOutput = OutputFormatFactory.createFormatInstance(logStream, VerboseMode.NORMAL);
            for (int threads : THREAD_COUNTS) {
                for (String method : new String[] {MILLIS, NANOS}) {
                    // Each pair runs back to back, so both variants of one figure see the same machine.
                    for (Variant variant : Variant.values()) {
                        System.out.println("running " + method + ", " + threads + " thread(s), " + variant.label
                                + " ...");
                        ChainedOptionsBuilder options = new OptionsBuilder()
                                .include("^" + Pattern.quote(ClockReadBenchmark.class.getName() + "." + method) + "$")
                                .threads(threads);
                        if (variant == Variant.AGENT) {
                            options.jvmArgsAppend(agentArgument);
                        }
                        if (quick) {
                            JmhRuns.useSmokeTestSettings(options);
                        }
                        for (RunResult result : new Runner(options.build(), jmhOutput).run()) {
                            scores.put(key(threads, variant, method), result.getPrimaryResult());
                        }
                    }
                }
            }
        }
        System.out.println("after: " + Machine.loadAverage());
        System.out.println();
        System.out.print(report(scores, quick));
    }

    private static String report(Map<String, Result<?>> scores, boolean quick) {
        StringBuilder out = new StringBuilder();
        out.append(Machine.describe()).append('\n');
        if (quick) {
            out.append("--quick: a smoke test; these figures are not measurements\n");
        }
        out.append('\n');
        out.append("| threads | call | direct ns/op | with agent ns/op | direct / with agent |\n");
        out.append("| ---: | --- | ---: | ---: | ---: |\n");
        List<String> verdicts = new ArrayList<>();
        for (int threads : THREAD_COUNTS) {
            for (String method : new String[] {MILLIS, NANOS}) {
                Result<?> direct = scores.get(key(threads, Variant.DIRECT, method));
                Result<?> agent = scores.get(key(threads, Variant.AGENT, method));
                double speedup = direct.getScore() / agent.getScore();
                out.append("| ").append(threads)
                        .append(" | `System.").append(method).append("()`")
                        .append(method.equals(NANOS) ? " (never rewritten)" : "")
                        .append(" | ").append(JmhRuns.withError(direct))
                        .append(" | ").append(JmhRuns.withError(agent))
                        .append(" | ").append(JmhRuns.format("%.1fx", speedup)).append(" |\n");
                if (method.equals(MILLIS)) {
                    boolean met = agent.getScore() <= BUDGET_MAX_NANOS && speedup >= BUDGET_MIN_SPEEDUP;
                    verdicts.add(threads + " thread(s): " + JmhRuns.format("%.3f", agent.getScore()) + " ns, "
                            + JmhRuns.format("%.1f", speedup) + "x: " + (met ? "met" : "MISSED"));
                }
            }
        }
        out.append('\n');
        out.append("budget: a rewritten currentTimeMillis() costs at most ")
                .append(JmhRuns.format("%.0f", BUDGET_MAX_NANOS)).append(" ns and is at least ")
                .append(JmhRuns.format("%.0f", BUDGET_MIN_SPEEDUP)).append("x cheaper than the direct call\n");
        for (String verdict : verdicts) {
            out.append("  ").append(verdict).append('\n');
        }
        return out.toString();
    }


    private static String key(int threads, Variant variant, String method) {
        return threads + "/" + variant + "/" + method;
    }


    /** The two variants: the same benchmark jar, with and without the agent on the forked JVM's command line. */
    private enum Variant {
        DIRECT("without the agent"),
        AGENT("with the agent");

        final String label;

        Variant(String label) {
            this.label = label;
        }
    }
}
