package io.clockagent.bench;

import io.clockagent.bench.bursty.BurstyLoop;
import io.clockagent.bench.bursty.rewritten.RewrittenLoop;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one rewritten {@code System.currentTimeMillis()} costs a reader in bursts with the agent's defaults
 * ({@code cache=auto}) against {@code cache=always}: {@link BurstyLoop} alternates 20 million reads through the
 * rewritten call with 20 million through a direct one, round after round, on 1 and then 2 threads; JVMs of the two
 * variants alternate. Reports the per-call time of the rewritten loop, median and mean over every round and thread
 * of every JVM but each JVM's first round (compilation), and the median's difference between the two.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.clockagent.bench.BurstyLoopComparison [--java PATH] [--jvms N]
 * [--rounds R] [--reads N]}.
 */
public final class BurstyLoopComparison {

    static final double BUDGET_NANOS = 0.2;
    private static final String[] VARIANTS = {"", ",cache=always"};
    private static final String[] VARIANT_NAMES = {"defaults (`cache=auto`)", "`cache=always`"};
    private static final Pattern ROUND = Pattern.compile("round (\\d+) thread \\d+ rewritten-ns-per-call ([\\d.]+)"
            + " direct-ns-per-call ([\\d.]+)");

    private BurstyLoopComparison() {
    }

    public static void main(String[] args) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        int jvms = 5;
        int rounds = 10;
        long reads = 20_000_000;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--java" -> java = Path.of(RunnerArguments.required(args[i], value));
                case "--jvms" -> jvms = Integer.parseInt(RunnerArguments.required(args[i], value));
                case "--rounds" -> rounds = Integer.parseInt(RunnerArguments.required(args[i], value));
                case "--reads" -> reads = Long.parseLong(RunnerArguments.required(args[i], value));
                default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "'; valid: --java PATH,"
                        + " --jvms N, --rounds R, --reads N");
            }
            i++;
        }
        JdkUnderTest jdk = JdkUnderTest.of(java);
        BenchmarkFiles files = BenchmarkFiles.locate();
        System.out.println("JDK " + jdk + ", " + Machine.hostFacts() + "; " + jvms + " JVMs a variant, " + rounds
                + " rounds of " + String.format(Locale.ROOT, "%,d", reads) + " rewritten then as many direct reads"
                + " each; before: " + Machine.loadAverage());
        System.out.println();
        System.out.println("| threads | variant | rewritten call, median ns | mean ns | direct call, median ns |"
                + " rounds | median's difference to `cache=always` |");
        System.out.println("| ---: | --- | ---: | ---: | ---: | ---: | ---: |");
        double worstNanos = Double.NEGATIVE_INFINITY;
        for (int threads = 1; threads <= 2; threads++) {
            List<List<Double>> rewritten = List.of(new ArrayList<>(), new ArrayList<>());
            List<List<Double>> direct = List.of(new ArrayList<>(), new ArrayList<>());
            for (int jvm = 0; jvm < jvms; jvm++) {
                System.err.print("  " + threads + " thread(s), JVM " + (jvm + 1) + " of " + jvms + " ...");
                for (int turn = 0; turn < VARIANTS.length; turn++) {
                    int variant = (turn + jvm) % VARIANTS.length;
                    run(jdk, files, VARIANTS[variant], threads, rounds, reads, rewritten.get(variant),
                            direct.get(variant));
                }
                System.err.println();
            }
            double alwaysMedian = Samples.median(rewritten.get(1));
            for (int variant = 0; variant < VARIANTS.length; variant++) {
                double median = Samples.median(rewritten.get(variant));
                double mean = rewritten.get(variant).stream().mapToDouble(Double::doubleValue).average().orElseThrow();
                if (variant == 0) {
                    worstNanos = Math.max(worstNanos, median - alwaysMedian);
                }
                System.out.println("| " + threads + " | " + VARIANT_NAMES[variant] + " | " + format("%.3f", median)
                        + " | " + format("%.3f", mean) + " | " + format("%.2f", Samples.median(direct.get(variant)))
                        + " | " + rewritten.get(variant).size() + " | "
                        + (variant == 0 ? format("%+.3f", median - alwaysMedian) : "") + " |");
            }
        }
        System.out.println();
        System.out.println("after: " + Machine.loadAverage());
        System.out.println("budget: the defaults' median within " + format("%.1f", BUDGET_NANOS) + " ns of cache=always:"
                + " worst " + format("%+.3f", worstNanos) + " ns: " + (worstNanos <= BUDGET_NANOS ? "met" : "MISSED"));
    }

    private static void run(JdkUnderTest jdk, BenchmarkFiles files, String options, int threads, int rounds,
            long reads, List<Double> rewritten, List<Double> direct) throws IOException, InterruptedException {
        List<String> command = List.of(jdk.java().toString(), "-javaagent:" + files.agentJar() + "=include="
                + RewrittenLoop.class.getPackageName() + options, "-cp", files.benchmarkJar().toString(),
                BurstyLoop.class.getName(), Integer.toString(threads), Integer.toString(rounds), Long.toString(reads));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0 || !output.contains("clock-agent: ") || output.contains("clock-agent: off")) {
            throw new IllegalStateException("exit status " + process.exitValue() + " or no active agent from "
                    + command + "\n" + output);
        }
        Matcher round = ROUND.matcher(output);
        int counted = 0;
        while (round.find()) {
            if (Integer.parseInt(round.group(1)) > 1) {
                rewritten.add(Double.parseDouble(round.group(2)));
                direct.add(Double.parseDouble(round.group(3)));
            }
            counted++;
        }
        if (counted != threads * rounds) {
            throw new IllegalStateException(counted + " rounds instead of " + threads * rounds + " from " + command
                    + "\n" + output);
        }
    }

    private static String format(String pattern, double value) {
        return String.format(Locale.ROOT, pattern, value);
    }
}
