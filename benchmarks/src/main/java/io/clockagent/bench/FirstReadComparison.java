package io.clockagent.bench;

import io.clockagent.bench.firstread.FirstReads;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the clock reads of a starting service cost, timed inside forked JVMs of {@link FirstReads}: its first read of
 * the clock and the thousand after it, with no agent (direct reads), and rewritten by clock-agent through
 * {@code -agentpath} and through {@code -javaagent}, each with {@code include} naming that program alone. Before its
 * ticker starts (one second into a start) the agent's reads take the direct clock too, through the cached clock,
 * whose first read also resolves and initializes it: what that adds to a start is what this shows. The variants run
 * in rounds, one run of each per round, the order rotated every round; the table gives medians, with the 95 %
 * interval of each median.
 *
 * <p>Usage: {@code java -Dclockagent.jar=PATH -cp benchmarks.jar io.clockagent.bench.FirstReadComparison
 * [--java PATH] [--rounds N]}; {@code --java} picks the JDK under test (default: this one).
 */
public final class FirstReadComparison {

    private static final Pattern TIMES = Pattern.compile("first-read-ns (\\d+) next-reads-ns (\\d+)");

    private FirstReadComparison() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        int rounds = 40;
        for (int i = 0; i < args.length; i += 2) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--java" -> java = RunnerArguments.required(args[i], value);
                case "--rounds" -> rounds = Integer.parseInt(RunnerArguments.required(args[i], value));
                default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "'; valid: --java PATH,"
                        + " --rounds N");
            }
        }
        BenchmarkFiles files = BenchmarkFiles.locate();
        String include = "=include=" + FirstReads.class.getPackageName();
        List<String> names = List.of("no agent", "clock-agent, -agentpath", "clock-agent, -javaagent");
        List<List<String>> agentArguments = List.of(List.of(),
                List.of("-agentpath:" + files.agentPathLibrary() + include),
                List.of("-javaagent:" + files.agentJar() + include));
        List<List<Long>> firstNanos = new ArrayList<>();
        List<List<Long>> nextNanos = new ArrayList<>();
        for (int variant = 0; variant < names.size(); variant++) {
            firstNanos.add(new ArrayList<>());
            nextNanos.add(new ArrayList<>());
        }
        System.out.println("JDK " + JdkUnderTest.of(Path.of(java)) + ", " + Machine.hostFacts() + "; " + rounds
                + " rounds");
        System.out.println("before: " + Machine.loadAverage());
        // An untimed round first, so that no variant pays for a cold page cache.
        for (int round = -1; round < rounds; round++) {
            for (int turn = 0; turn < names.size(); turn++) {
                int variant = (turn + Math.max(round, 0)) % names.size();
                long[] times = run(java, agentArguments.get(variant), files.benchmarkJar());
                if (round >= 0) {
                    firstNanos.get(variant).add(times[0]);
                    nextNanos.get(variant).add(times[1]);
                }
            }
        }
        System.out.println("after: " + Machine.loadAverage());
        System.out.println();
        System.out.println("| reads of a start | first read us (95 % interval) | next " + FirstReads.READS
                + " reads us (95 % interval) |");
        System.out.println("| --- | ---: | ---: |");
        for (int variant = 0; variant < names.size(); variant++) {
            System.out.println("| " + names.get(variant) + " | " + micros(firstNanos.get(variant)) + " | "
                    + micros(nextNanos.get(variant)) + " |");
        }
    }

    /** One run of the program: the nanoseconds of its first read and of the reads after it. */
    private static long[] run(String java, List<String> agentArguments, Path benchmarkJar)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(java));
        command.addAll(agentArguments);
        command.addAll(List.of("-cp", benchmarkJar.toString(), FirstReads.class.getName()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        Matcher times = TIMES.matcher(output);
        if (process.waitFor() != 0 || !times.find()) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
        }
        return new long[] {Long.parseLong(times.group(1)), Long.parseLong(times.group(2))};
    }

    private static String micros(List<Long> nanos) {
        double[] interval = Samples.medianInterval95(nanos);
        return String.format(Locale.ROOT, "%.1f (%.1f-%.1f)", Samples.median(nanos) / 1e3, interval[0] / 1e3,
                interval[1] / 1e3);
    }
}
