package io.clockagent.bench;

import io.clockagent.bench.preticker.PreTickerReader;
import io.clockagent.bench.preticker.rewritten.RewrittenReads;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a read of the clock costs before the agent's ticker starts, when rewritten call sites take the direct clock
 * through the cached clock: a flat-out reader on 1 and then 2 threads, timed over the first seconds of forked JVMs of
 * {@link PreTickerReader}, with no agent and through {@code -javaagent} and {@code -agentpath}, each with
 * {@code include} naming {@link RewrittenReads}' package alone; with {@code --baseline-jar}, through both entries of
 * that jar too. The variants run in rounds, one run of each per round, the order rotated every round, after an untimed
 * round. A round's figures are means over its threads of the nanoseconds a read: of CPU time over the whole window,
 * which the budget reads, and over its last second, which the JIT has compiled, and of wall time over the window. CPU
 * time leaves out the waits for a CPU that other work on the machine imposes at random, which wall time counts. The
 * table gives medians, with their 95 % interval. Fails where a run shows the agent inactive; a round in which a run
 * shows any of the agent's Java threads alive at the end of the window is repeated.
 *
 * <p>Usage: {@code java -Dclockagent.jar=PATH -cp benchmarks.jar io.clockagent.bench.PreTickerReadComparison
 * [--java PATH] [--rounds N] [--seconds S] [--baseline-jar PATH]}.
 */
public final class PreTickerReadComparison {

    /** A read before the ticker starts at most this many times a direct read with no agent, by medians. */
    static final double BUDGET_RATIO = 1.1;
    private static final Pattern THREAD = Pattern.compile("thread \\d+ window-reads (\\d+) window-ns (\\d+)"
            + " window-cpu-ns (\\d+) last-second-reads (\\d+) last-second-ns \\d+ last-second-cpu-ns (\\d+)");
    private static final Pattern AGENT_THREADS = Pattern.compile("agent-threads \\[(.*)]");
    private static final double[] NOT_BEFORE_TICKER = new double[0];
    /* A run's figures, each in ns a read averaged over its threads. */
    private static final int WINDOW_CPU = 0;
    private static final int LAST_SECOND_CPU = 1;
    private static final int WALL = 2;
    private static final int FIGURES = 3;

    private PreTickerReadComparison() {
    }

    /** The runner's options; {@link #parse} rejects what it cannot use, naming the valid forms. */
    record Options(Path java, int rounds, int seconds, Path baselineJar) {

        static final String VALID = "valid: --java PATH, --rounds N (6 or more), --seconds S (2 to 9),"
                + " --baseline-jar PATH";

        static Options parse(String[] args) {
            Path java = Path.of(System.getProperty("java.home"), "bin", "java");
            int rounds = 10;
            int seconds = 3;
            Path baselineJar = null;
            for (int i = 0; i < args.length; i += 2) {
                String value = i + 1 < args.length ? args[i + 1] : null;
                switch (args[i]) {
                    case "--java" -> java = Path.of(RunnerArguments.required(args[i], value));
                    case "--rounds" -> rounds = Integer.parseInt(RunnerArguments.required(args[i], value));
                    case "--seconds" -> seconds = Integer.parseInt(RunnerArguments.required(args[i], value));
                    case "--baseline-jar" -> baselineJar = Path.of(RunnerArguments.required(args[i], value));
                    default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "'; " + VALID);
                }
            }
            // The median's interval takes six rounds. The window must hold more than its last second, and end well
            // before the agent's start stops waiting for class loading to settle (10 s).
            if (rounds < 6 || seconds < 2 || seconds > 9) {
                throw new IllegalArgumentException("--rounds " + rounds + " --seconds " + seconds + " out of range; "
                        + VALID);
            }
            return new Options(java, rounds, seconds, baselineJar);
        }
    }

    /** One way to start the JVM; {@code agent} where its output must show an active clock-agent. */
    private record Variant(String name, List<String> jvmArguments, boolean agent) {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        Options options = Options.parse(args);
        JdkUnderTest jdk = JdkUnderTest.of(options.java());
        BenchmarkFiles files = BenchmarkFiles.locate();
        String include = "=include=" + RewrittenReads.class.getPackageName();
        List<Variant> variants = new ArrayList<>(List.of(new Variant("no agent", List.of(), false),
                new Variant("`-javaagent`", List.of("-javaagent:" + files.agentJar() + include), true),
                new Variant("`-agentpath`", List.of("-agentpath:" + files.agentPathLibrary() + include), true)));
        if (options.baselineJar() != null) {
            Path baselineJar = options.baselineJar().toAbsolutePath();
            variants.add(new Variant("`-javaagent`, baseline", List.of("-javaagent:" + baselineJar + include), true));
            variants.add(new Variant("`-agentpath`, baseline", List.of("-agentpath:"
                    + files.agentPathLibrary(baselineJar, "agentpath-baseline") + include), true));
        }
        System.out.println("JDK " + jdk + ", " + Machine.hostFacts() + "; " + options.rounds() + " rounds of "
                + options.seconds() + " s" + (options.baselineJar() == null ? ""
                : "; baseline " + options.baselineJar()));
        System.out.println("before: " + Machine.loadAverage());
        List<String> rows = new ArrayList<>();
        List<String> verdicts = new ArrayList<>();
        List<Integer> repeats = new ArrayList<>();
        for (int threads = 1; threads <= 2; threads++) {
            // Per figure (FIGURES), per variant, one value a round.
            List<List<List<Double>>> nanos = new ArrayList<>();
            for (int figure = 0; figure < FIGURES; figure++) {
                nanos.add(new ArrayList<>());
                for (int variant = 0; variant < variants.size(); variant++) {
                    nanos.get(figure).add(new ArrayList<>());
                }
            }
            int repeated = 0;
            for (int round = -1; round < options.rounds(); round++) {
                System.err.print("\r  " + threads + " thread(s), round " + (round + 1) + " of " + options.rounds());
                double[][] roundNanos = new double[variants.size()][];
                boolean beforeTicker = true;
                for (int turn = 0; turn < variants.size() && beforeTicker; turn++) {
                    int variant = (turn + Math.max(round, 0)) % variants.size();
                    roundNanos[variant] = run(jdk, files, variants.get(variant), threads, options.seconds());
                    beforeTicker = roundNanos[variant] != NOT_BEFORE_TICKER;
                }
                if (!beforeTicker) {
                    // A round is repeated whole, so that no variant keeps only the runs of the quieter moments.
                    if (++repeated > options.rounds()) {
                        throw new IllegalStateException("the agent's Java side started inside the window in more"
                                + " than " + options.rounds() + " rounds: the machine is too busy for this benchmark");
                    }
                    round--;
                } else if (round >= 0) {
                    for (int figure = 0; figure < FIGURES; figure++) {
                        for (int variant = 0; variant < variants.size(); variant++) {
                            nanos.get(figure).get(variant).add(roundNanos[variant][figure]);
                        }
                    }
                }
            }
            System.err.println();
            repeats.add(repeated);
            for (int variant = 0; variant < variants.size(); variant++) {
                StringBuilder row = new StringBuilder("| " + threads + " | " + variants.get(variant).name() + " |");
                for (int figure = 0; figure < FIGURES; figure++) {
                    List<Double> figureNanos = nanos.get(figure).get(variant);
                    double ratio = Samples.median(figureNanos) / Samples.median(nanos.get(figure).get(0));
                    row.append(' ').append(figure == WALL ? format("%.2f", Samples.median(figureNanos))
                            : medianAndInterval(figureNanos)).append(" | ")
                            .append(variant == 0 ? "" : format("%.3fx", ratio)).append(" |");
                    if (figure == WINDOW_CPU && (variant == 1 || variant == 2)) {
                        verdicts.add(variants.get(variant).name() + ", " + threads + " thread(s): "
                                + budgetVerdict(ratio));
                    }
                }
                rows.add(row.toString());
            }
        }
        System.out.println("after: " + Machine.loadAverage() + "; rounds repeated as the agent's Java side started"
                + " inside the window: " + repeats.get(0) + " on 1 thread, " + repeats.get(1) + " on 2");
        System.out.println();
        System.out.println("| threads | variant | CPU ns a read over the window (95 % interval) | over no agent |"
                + " CPU ns a read in its last second (95 % interval) | over no agent | wall ns a read over the window |"
                + " over no agent |");
        System.out.println("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |");
        rows.forEach(System.out::println);
        System.out.println();
        verdicts.forEach(verdict -> System.out.println("budget: " + verdict));
    }

    /** The budget's reading of a ratio of medians to no agent. */
    static String budgetVerdict(double ratio) {
        return "at most " + format("%.2f", BUDGET_RATIO) + "x a direct read with no agent: " + format("%.3f", ratio)
                + "x: " + (ratio <= BUDGET_RATIO ? "met" : "MISSED");
    }

    /**
     * One run: its figures (WINDOW_CPU, LAST_SECOND_CPU, WALL); or
     * {@link #NOT_BEFORE_TICKER} where the agent's Java side started inside the window, as it does when the machine is
     * so busy that {@code PreTickerReader}'s start keeper gets no CPU for longer than the agent's start waits.
     */
    private static double[] run(JdkUnderTest jdk, BenchmarkFiles files, Variant variant, int threads, int seconds)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(jdk.java().toString()));
        command.addAll(variant.jvmArguments());
        command.addAll(List.of("-cp", files.benchmarkJar().toString(), PreTickerReader.class.getName(),
                Integer.toString(threads), Long.toString(seconds * 1000L)));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        Matcher agentThreads = AGENT_THREADS.matcher(output);
        boolean active = output.contains("clock-agent: ") && !output.contains("clock-agent: off");
        if (process.waitFor() != 0 || !agentThreads.find() || active != variant.agent()) {
            throw new IllegalStateException("exit status " + process.exitValue() + ", no thread list, or the agent "
                    + (variant.agent() ? "inactive" : "active") + " in " + command + "\n" + output);
        }
        if (!agentThreads.group(1).isEmpty()) {
            return NOT_BEFORE_TICKER;
        }
        Matcher thread = THREAD.matcher(output);
        double[] nanos = new double[FIGURES];
        int counted = 0;
        while (thread.find()) {
            long windowReads = Long.parseLong(thread.group(1));
            nanos[WALL] += Double.parseDouble(thread.group(2)) / windowReads;
            nanos[WINDOW_CPU] += Double.parseDouble(thread.group(3)) / windowReads;
            nanos[LAST_SECOND_CPU] += Double.parseDouble(thread.group(5)) / Long.parseLong(thread.group(4));
            counted++;
        }
        if (counted != threads) {
            throw new IllegalStateException(counted + " threads reported instead of " + threads + " by " + command
                    + "\n" + output);
        }
        for (int figure = 0; figure < FIGURES; figure++) {
            nanos[figure] /= threads;
        }
        return nanos;
    }

    private static String medianAndInterval(List<Double> nanos) {
        double[] interval = Samples.medianInterval95(nanos);
        return format("%.2f", Samples.median(nanos)) + " (" + format("%.2f", interval[0]) + "-"
                + format("%.2f", interval[1]) + ")";
    }

    private static String format(String pattern, double value) {
        return String.format(Locale.ROOT, pattern, value);
    }
}
