package io.clockagent.bench;

import io.clockagent.bench.clock.ClockReadBenchmark;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
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
 * {@code -javaagent:clock-agent.jar=include=io.clockagent.bench.clock}, each with 1 and with 2 threads, on one or
 * more JDKs, and prints the comparison against the budget. The runs of one figure (every JDK, both variants) follow
 * each other, so that all of them see the same machine. Forks, warmup and measurement come from the benchmark's
 * annotations. JMH's own log goes to {@code target/jmh-jdkNN.log}.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.clockagent.bench.ClockReadComparison [--java PATH]... [--against JAR]
 * [--quick]}; each {@code --java} adds a JDK whose JVMs the runs fork (default: the one that runs this class), and the
 * first is the reference the others' agent figures are compared with; {@code --against} adds a third variant, another
 * build of the agent in the same place, run right after this build's. {@code --quick} is a smoke test of the wiring
 * whose figures mean nothing.
 */
public final class ClockReadComparison {

    static final double BUDGET_MAX_NANOS = 1.0;
    static final double BUDGET_MIN_SPEEDUP = 30.0;
    /** How far the agent's figure on another JDK may lie from the reference JDK's in the same run. */
    static final double BUDGET_MAX_NANOS_FROM_REFERENCE = 0.1;
    private static final int[] THREAD_COUNTS = {1, 2};
    private static final String MILLIS = "currentTimeMillis";
    private static final String NANOS = "nanoTime";

    private ClockReadComparison() {
    }

    public static void main(String[] args) throws IOException, RunnerException, InterruptedException {
        boolean quick = false;
        List<JdkUnderTest> jdks = new ArrayList<>();
        Path against = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--quick")) {
                quick = true;
            } else if (args[i].equals("--java") && i + 1 < args.length) {
                jdks.add(JdkUnderTest.of(Path.of(args[++i])));
            } else if (args[i].equals("--against") && i + 1 < args.length) {
                against = Path.of(args[++i]);
            } else {
                throw new IllegalArgumentException("unknown argument '" + args[i]
                        + "'; valid: --java PATH (repeatable), --against JAR, --quick");
            }
        }
        if (jdks.isEmpty()) {
            jdks.add(JdkUnderTest.of(Path.of(System.getProperty("java.home"), "bin", "java")));
        }
        BenchmarkFiles files = BenchmarkFiles.locate();
        String agentArgument = agentArgument(files.agentJar());
        String againstArgument = against == null ? null : agentArgument(against);
        List<Variant> variants = against == null ? List.of(Variant.DIRECT, Variant.AGENT)
                : List.of(Variant.DIRECT, Variant.AGENT, Variant.AGAINST);
        Map<String, Result<?>> scores = new LinkedHashMap<>();
        try (PrintStream logStream = JmhRuns.openLog(files, "jmh")) {
            System.out.println("agent variant: " + agentArgument);
            if (againstArgument != null) {
                System.out.println("other agent variant: " + againstArgument);
            }
            for (JdkUnderTest jdk : jdks) {
                System.out.println("JDK: " + jdk);
            }
            System.out.println("before: " + Machine.loadAverage());
            OutputFormat jmhOutput = OutputFormatFactory.createFormatInstance(logStream, VerboseMode.NORMAL);
            for (int threads : THREAD_COUNTS) {
                for (String method : new String[] {MILLIS, NANOS}) {
                    for (JdkUnderTest jdk : jdks) {
                        for (Variant variant : variants) {
                            if (variant == Variant.AGAINST && method.equals(NANOS)) {
                                // nanoTime() is never rewritten: its scale needs no third variant.
                                continue;
                            }
                            System.out.println("running " + method + ", " + threads + " thread(s), JDK "
                                    + jdk.label() + ", " + variant.label + " ...");
                            ChainedOptionsBuilder options = new OptionsBuilder()
                                    .include("^" + Pattern.quote(ClockReadBenchmark.class.getName() + "." + method)
                                            + "$")
                                    .jvm(jdk.java().toString())
                                    .threads(threads);
                            if (variant != Variant.DIRECT) {
                                options.jvmArgsAppend(variant == Variant.AGENT ? agentArgument : againstArgument);
                            }
                            if (quick) {
                                JmhRuns.useSmokeTestSettings(options);
                            }
                            for (RunResult result : new Runner(options.build(), jmhOutput).run()) {
                                scores.put(key(jdk, threads, variant, method), result.getPrimaryResult());
                            }
                        }
                    }
                }
            }
        }
        System.out.println("after: " + Machine.loadAverage());
        System.out.println();
        System.out.print(report(jdks, scores, quick));
        if (against != null) {
            System.out.print(reportAgainst(jdks, scores, against));
        }
    }

    private static String agentArgument(Path agentJar) {
        return "-javaagent:" + agentJar + "=include=" + ClockReadBenchmark.class.getPackageName();
    }

    /** This build's rewritten read beside the other build's, JDK by JDK. */
    private static String reportAgainst(List<JdkUnderTest> jdks, Map<String, Result<?>> scores, Path against) {
        StringBuilder out = new StringBuilder("\n| JDK | threads | this build ns/op | " + against.getFileName()
                + " ns/op | this / other |\n| --- | ---: | ---: | ---: | ---: |\n");
        for (int threads : THREAD_COUNTS) {
            for (JdkUnderTest jdk : jdks) {
                Result<?> mine = scores.get(key(jdk, threads, Variant.AGENT, MILLIS));
                Result<?> theirs = scores.get(key(jdk, threads, Variant.AGAINST, MILLIS));
                out.append("| ").append(jdk.label()).append(" | ").append(threads)
                        .append(" | ").append(JmhRuns.withError(mine))
                        .append(" | ").append(JmhRuns.withError(theirs))
                        .append(" | ").append(JmhRuns.format("%.3f", mine.getScore() / theirs.getScore()))
                        .append(" |\n");
            }
        }
        return out.toString();
    }

    private static String report(List<JdkUnderTest> jdks, Map<String, Result<?>> scores, boolean quick) {
        StringBuilder out = new StringBuilder();
        out.append("forks on ").append(jdks.size() == 1 ? "one JDK" : jdks.size() + " JDKs").append(", ")
                .append(Machine.hostFacts()).append('\n');
        if (quick) {
            out.append("--quick: a smoke test; these figures are not measurements\n");
        }
        out.append('\n');
        out.append("| JDK | threads | call | direct ns/op | with agent ns/op | direct / with agent |\n");
        out.append("| --- | ---: | --- | ---: | ---: | ---: |\n");
        List<String> verdicts = new ArrayList<>();
        JdkUnderTest reference = jdks.get(0);
        for (int threads : THREAD_COUNTS) {
            for (String method : new String[] {MILLIS, NANOS}) {
                for (JdkUnderTest jdk : jdks) {
                    Result<?> direct = scores.get(key(jdk, threads, Variant.DIRECT, method));
                    Result<?> agent = scores.get(key(jdk, threads, Variant.AGENT, method));
                    double speedup = direct.getScore() / agent.getScore();
                    out.append("| ").append(jdk.label())
                            .append(" | ").append(threads)
                            .append(" | `System.").append(method).append("()`")
                            .append(method.equals(NANOS) ? " (never rewritten)" : "")
                            .append(" | ").append(JmhRuns.withError(direct))
                            .append(" | ").append(JmhRuns.withError(agent))
                            .append(" | ").append(JmhRuns.format("%.1fx", speedup)).append(" |\n");
                    if (method.equals(MILLIS)) {
                        verdicts.add(verdict(jdk, threads, agent.getScore(), speedup,
                                scores.get(key(reference, threads, Variant.AGENT, method)).getScore(), reference));
                    }
                }
            }
        }
        out.append('\n');
        out.append("budget: a rewritten currentTimeMillis() costs at most ")
                .append(JmhRuns.format("%.0f", BUDGET_MAX_NANOS)).append(" ns and is at least ")
                .append(JmhRuns.format("%.0f", BUDGET_MIN_SPEEDUP)).append("x cheaper than the direct call");
        if (jdks.size() > 1) {
            out.append(", and on each JDK lies within ").append(JmhRuns.format("%.1f", BUDGET_MAX_NANOS_FROM_REFERENCE))
                    .append(" ns of JDK ").append(reference.label()).append("'s");
        }
        out.append('\n');
        for (String verdict : verdicts) {
            out.append("  ").append(verdict).append('\n');
        }
        return out.toString();
    }

    private static String verdict(JdkUnderTest jdk, int threads, double agentNanos, double speedup,
            double referenceAgentNanos, JdkUnderTest reference) {
        boolean met = agentNanos <= BUDGET_MAX_NANOS && speedup >= BUDGET_MIN_SPEEDUP;
        String line = "JDK " + jdk.label() + ", " + threads + " thread(s): " + JmhRuns.format("%.3f", agentNanos)
                + " ns, " + JmhRuns.format("%.1f", speedup) + "x";
        if (jdk != reference) {
            double fromReference = agentNanos - referenceAgentNanos;
            met &= Math.abs(fromReference) <= BUDGET_MAX_NANOS_FROM_REFERENCE;
            line += ", " + JmhRuns.format("%+.3f", fromReference) + " ns from JDK " + reference.label();
        }
        return line + ": " + (met ? "met" : "MISSED");
    }

    private static String key(JdkUnderTest jdk, int threads, Variant variant, String method) {
        return jdk.java() + "/" + threads + "/" + variant + "/" + method;
    }


    /**
     * The variants: the same benchmark jar, without the agent on the forked JVM's command line, with it, and with the
     * other build given by --against.
     */
    private enum Variant {
        DIRECT("without the agent"),
        AGENT("with the agent"),
        AGAINST("with the other agent");

        final String label;

        Variant(String label) {
            this.label = label;
        }
    }
}
