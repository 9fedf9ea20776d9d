package io.clockagent.bench;

import io.clockagent.bench.rate.FixedRateReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What the agent costs and saves at a given clock read rate: {@link FixedRateReader} reads
 * {@code System.currentTimeMillis()} at fixed rates spread over two threads, without the agent, with it on its
 * defaults ({@code cache=auto}) and with {@code cache=always}, in rounds, the three in rotated order, on this host's
 * clock and under the slow-clock emulation ({@code LD_PRELOAD}, every clock read a system call, as on {@code hpet} or
 * Xen hosts). Reports the process's CPU time per second in each (median over the rounds, as a share of one core), the
 * defaults' difference to the run without the agent with its per-round values, and at the top rate the share of the
 * CPU spent reading the clock that the agent saves. Rate 0, where the threads only park, is what the process spends
 * without reading the clock.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.clockagent.bench.ReadRateComparison [--java PATH] [--rounds N]
 * [--seconds S] [--clock host|emulated] [--rates 0,R,...]}; the rates, in reads per second, default to 0, 10,000,
 * 100,000, 1,000,000 and 5,000,000, and start with 0, against which the top rate's savings are reckoned.
 */
public final class ReadRateComparison {

    private static final long[] DEFAULT_READS_PER_SECOND = {0, 10_000, 100_000, 1_000_000, 5_000_000};
    private static final int THREADS = 2;
    private static final long WARMUP_SECONDS = 2;
    static final double BUDGET_EXTRA_POINTS = 0.5;
    /** Without the agent, with its defaults, with cache=always: what follows the jar in -javaagent. */
    private static final String[] AGENT_ARGUMENTS = {null, "", "=cache=always"};

    private ReadRateComparison() {
    }

    public static void main(String[] args) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        int rounds = 5;
        long timedSeconds = 5;
        String onlyClock = null;
        long[] readsPerSecond = DEFAULT_READS_PER_SECOND;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--java" -> java = Path.of(RunnerArguments.required(args[i], value));
                case "--rounds" -> rounds = Integer.parseInt(RunnerArguments.required(args[i], value));
                case "--seconds" -> timedSeconds = Long.parseLong(RunnerArguments.required(args[i], value));
                case "--clock" -> onlyClock = RunnerArguments.required(args[i], value);
                case "--rates" -> readsPerSecond = Arrays.stream(RunnerArguments.required(args[i], value).split(","))
                        .mapToLong(Long::parseLong).toArray();
                default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "'; valid: --java PATH,"
                        + " --rounds N, --seconds S, --clock host|emulated, --rates 0,R,...");
            }
            i++;
        }
        if (readsPerSecond.length < 2 || readsPerSecond[0] != 0) {
            throw new IllegalArgumentException("--rates " + Arrays.toString(readsPerSecond) + ": give 0 and at least"
                    + " one more rate, 0 first (the CPU without reads is the baseline of the savings)");
        }
        JdkUnderTest jdk = JdkUnderTest.of(java);
        BenchmarkFiles files = BenchmarkFiles.locate();
        System.out.println("JDK " + jdk + ", " + Machine.hostFacts() + "; " + rounds + " rounds, " + THREADS
                + " reading threads, " + WARMUP_SECONDS + " s warm-up and " + timedSeconds + " s timed per run");
        if (onlyClock == null || onlyClock.equals("host")) {
            compare("host clock", null, jdk, files, readsPerSecond, rounds, timedSeconds);
        }
        if (onlyClock == null || onlyClock.equals("emulated")) {
            compare("emulated slow clock (LD_PRELOAD)", files.slowClockLibrary(), jdk, files, readsPerSecond, rounds,
                    timedSeconds);
        }
    }

    private static void compare(String clockName, Path slowClock, JdkUnderTest jdk, BenchmarkFiles files,
            long[] readsPerSecond, int rounds, long timedSeconds) throws IOException, InterruptedException {
        System.out.println();
        System.out.println(clockName + ", before: " + Machine.loadAverage());
        List<List<Long>> without = new ArrayList<>();
        List<List<Long>> with = new ArrayList<>();
        List<List<Long>> always = new ArrayList<>();
        for (long rate : readsPerSecond) {
            without.add(new ArrayList<>());
            with.add(new ArrayList<>());
            always.add(new ArrayList<>());
        }
        List<List<List<Long>>> byVariant = List.of(without, with, always);
        for (int round = 0; round < rounds; round++) {
            System.err.print("  round " + (round + 1) + " of " + rounds + " ...");
            for (int r = 0; r < readsPerSecond.length; r++) {
                for (int turn = 0; turn < AGENT_ARGUMENTS.length; turn++) {
                    int variant = (turn + round + r) % AGENT_ARGUMENTS.length;
                    long cpu = run(jdk, files, slowClock, AGENT_ARGUMENTS[variant], readsPerSecond[r],
                            timedSeconds);
                    byVariant.get(variant).get(r).add(cpu);
                }
            }
        }
        System.err.println();
        System.out.println("  after: " + Machine.loadAverage());
        System.out.println();
        System.out.println("| reads per second | CPU without the agent (% of a core) | with `cache=always` | with the"
                + " defaults (`cache=auto`) | defaults' difference (points) | per round |");
        System.out.println("| ---: | ---: | ---: | ---: | ---: | --- |");
        for (int r = 0; r < readsPerSecond.length; r++) {
            double off = percent(Samples.median(without.get(r)));
            double on = percent(Samples.median(with.get(r)));
            List<String> differences = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                differences.add(format("%+.2f", percent(with.get(r).get(round) - without.get(r).get(round))));
            }
            System.out.println("| " + String.format(Locale.ROOT, "%,d", readsPerSecond[r]) + " | "
                    + format("%.2f", off) + " | " + format("%.2f", percent(Samples.median(always.get(r)))) + " | "
                    + format("%.2f", on) + " | " + format("%+.2f", on - off) + " | "
                    + String.join(" ", differences) + " |");
        }
        int top = readsPerSecond.length - 1;
        double reading = Samples.median(without.get(top)) - Samples.median(without.get(0));
        double saved = Samples.median(without.get(top)) - Samples.median(with.get(top));
        double worstPoints = Double.NEGATIVE_INFINITY;
        for (int r = 0; r < readsPerSecond.length; r++) {
            worstPoints = Math.max(worstPoints,
                    percent(Samples.median(with.get(r)) - Samples.median(without.get(r))));
        }
        System.out.println();
        System.out.println("at " + String.format(Locale.ROOT, "%,d", readsPerSecond[top]) + " reads per second the"
                + " agent saves " + format("%.0f", 100 * saved / reading) + " % of the CPU spent reading the clock"
                + " without it (" + format("%.2f", percent(saved)) + " of " + format("%.2f", percent(reading))
                + " points)");
        System.out.println("budget: with the defaults, at most " + format("%.2f", BUDGET_EXTRA_POINTS) + " points of a"
                + " core more than without, at every rate (medians): worst " + format("%+.2f", worstPoints) + ": "
                + (worstPoints <= BUDGET_EXTRA_POINTS ? "met" : "MISSED"));
    }

    /** One run's CPU nanoseconds per second; {@code agentOptions} null for a run without the agent. */
    private static long run(JdkUnderTest jdk, BenchmarkFiles files, Path slowClock, String agentOptions, long rate,
            long timedSeconds) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(jdk.java().toString()));
        boolean agent = agentOptions != null;
        if (agent) {
            command.add("-javaagent:" + files.agentJar() + agentOptions);
        }
        command.addAll(List.of("-cp", files.benchmarkJar().toString(), FixedRateReader.class.getName(),
                Long.toString(rate), Integer.toString(THREADS), Long.toString(WARMUP_SECONDS),
                Long.toString(timedSeconds)));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        if (slowClock != null) {
            builder.environment().put("LD_PRELOAD", slowClock.toString());
        }
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IllegalStateException("exit status " + process.exitValue() + " from " + command + "\n" + output);
        }
        if (agent && !output.contains("clock-agent: ") || output.contains("clock-agent: off")) {
            throw new IllegalStateException("clock-agent is not active in this run:\n" + output);
        }
        String line = output.lines().filter(text -> text.startsWith("cpu-per-second ")).findFirst()
                .orElseThrow(() -> new IllegalStateException("no result from " + command + "\n" + output));
        String[] fields = line.split(" ");
        long expectedReads = rate * timedSeconds;
        long reads = Long.parseLong(fields[3]);
        if (Math.abs(reads - expectedReads) > expectedReads / 10) {
            throw new IllegalStateException("read " + reads + " times instead of about " + expectedReads + ": " + line);
        }
        return Long.parseLong(fields[1]);
    }

    private static double percent(double cpuNanosPerSecond) {
        return cpuNanosPerSecond / 1e7;
    }

    private static String format(String pattern, double value) {
        return String.format(Locale.ROOT, pattern, value);
    }
}
