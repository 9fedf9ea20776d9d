package io.clockagent.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * What the agent saves a service whose libraries run clocks of their own (issue #49): the library clocks service
 * ({@code stacks/library-clocks-service}: mybatis-plus and Hutool snowflake ids, Sentinel resources, the static clocks
 * of mybatis-plus, Hutool, Sentinel and Dubbo, each backed by a thread that stores the time every millisecond) without
 * the agent and with it on its defaults, in rounds, the two alternating, their order swapped each round, on this
 * host's clock and under the slow-clock emulation ({@code LD_PRELOAD}, every clock read a system call, as on
 * {@code hpet} or Xen hosts). Each run ({@link LibraryClocksRun}) measures the process's CPU time per second at a modest
 * paced load, {@value LibraryClocksRun#REQUESTS_PER_SECOND} requests a second, and then idle, with no request. Reports
 * for each the medians over the rounds with their range, the per-round ratio of clock-agent to no agent (median, its
 * 95 % interval where there are rounds enough, range), the library clock threads alive at each run's end, and what the
 * agent's exit report said of caching. Single-threaded; one service at a time.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.clockagent.bench.LibraryClocksComparison [--java PATH] [--rounds N]
 * [--warmup-seconds S] [--seconds S] [--clock host|emulated]}; each run takes the warm-up and two windows of S seconds.
 */
public final class LibraryClocksComparison {

    private static final String MODULE = "library-clocks-service";
    private static final String[] VARIANTS = {"no agent", "clock-agent"};
    private static final int AGENT = 1;

    private LibraryClocksComparison() {
    }

    public static void main(String[] args) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        int rounds = 5;
        long warmupSeconds = 3;
        long windowSeconds = 5;
        String onlyClock = null;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--java" -> java = Path.of(RunnerArguments.required(args[i], value));
                case "--rounds" -> rounds = Integer.parseInt(RunnerArguments.required(args[i], value));
                case "--warmup-seconds" -> warmupSeconds = Long.parseLong(RunnerArguments.required(args[i], value));
                case "--seconds" -> windowSeconds = Long.parseLong(RunnerArguments.required(args[i], value));
                case "--clock" -> onlyClock = RunnerArguments.required(args[i], value);
                default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "'; valid: --java PATH,"
                        + " --rounds N, --warmup-seconds S, --seconds S, --clock host|emulated");
            }
            i++;
        }
        if (onlyClock != null && !onlyClock.equals("host") && !onlyClock.equals("emulated")) {
            throw new IllegalArgumentException("--clock " + onlyClock + "; valid: host, emulated");
        }
        JdkUnderTest jdk = JdkUnderTest.of(java);
        BenchmarkFiles files = BenchmarkFiles.locate();
        Path work = Files.createTempDirectory("library-clocks-comparison");
        System.out.println("JDK " + jdk + ", " + Machine.hostFacts() + "; " + rounds + " rounds, " + warmupSeconds
                + " s warm-up, then " + windowSeconds + " s at " + String.format(Locale.ROOT, "%,d",
                LibraryClocksRun.REQUESTS_PER_SECOND) + " requests a second (`ids 1`: an id from each generator, a Sentinel entry, a read of each library"
                + " clock) and " + windowSeconds + " s idle per run; " + files.stackJar(MODULE));
        long warmupNanos = TimeUnit.SECONDS.toNanos(warmupSeconds);
        long windowNanos = TimeUnit.SECONDS.toNanos(windowSeconds);
        if (onlyClock == null || onlyClock.equals("host")) {
            compare("host clock", Map.of(), jdk, files, work.resolve("host"), rounds, warmupNanos, windowNanos);
        }
        if (onlyClock == null || onlyClock.equals("emulated")) {
            compare("emulated slow clock (LD_PRELOAD)", Map.of("LD_PRELOAD", files.slowClockLibrary().toString()), jdk,
                    files, work.resolve("emulated"), rounds, warmupNanos, windowNanos);
        }
    }

    private static void compare(String clockName, Map<String, String> environment, JdkUnderTest jdk,
            BenchmarkFiles files, Path work, int rounds, long warmupNanos, long windowNanos) throws Exception {
        System.out.println();
        System.out.println(clockName + ", before: " + Machine.loadAverage());
        List<List<LibraryClocksRun>> runs = List.of(new ArrayList<>(), new ArrayList<>());
        for (int round = 0; round < rounds; round++) {
            System.err.print("  round " + (round + 1) + " of " + rounds + " ...");
            for (int turn = 0; turn < VARIANTS.length; turn++) {
                int variant = (turn + round) % VARIANTS.length;
                Path runDirectory = work.resolve("round-" + round + "-" + variant);
                List<String> command = new ArrayList<>(List.of(jdk.java().toString()));
                if (variant == AGENT) {
                    // The defaults, and the two report lines that say what cache=auto did.
                    command.add("-javaagent:" + files.agentJar() + "=report=summary");
                }
                command.addAll(List.of("-Dstack.logDirectory=" + runDirectory.resolve("logs"), "-jar",
                        files.stackJar(MODULE).toString()));
                runs.get(variant).add(LibraryClocksRun.run(command, environment, variant == AGENT, runDirectory,
                        warmupNanos, windowNanos));
            }
        }
        System.err.println();
        System.out.println("  after: " + Machine.loadAverage());
        System.out.println();
        List<LibraryClocksRun> without = runs.get(0);
        List<LibraryClocksRun> with = runs.get(AGENT);
        System.out.println("| window | no agent: CPU ms/s, median (range) | clock-agent | clock-agent / no agent, per"
                + " round |");
        System.out.println("| --- | ---: | ---: | --- |");
        System.out.println(row(String.format(Locale.ROOT, "%,d requests/s", LibraryClocksRun.REQUESTS_PER_SECOND),
                without, with, run -> run.loadedCpuNanosPerSecond));
        System.out.println(row("idle", without, with, run -> run.idleCpuNanosPerSecond));
        System.out.println();
        System.out.println("requests answered per second in the loaded window, median: " + format("%.0f",
                median(without, run -> run.requestsPerSecond)) + " without, " + format("%.0f",
                median(with, run -> run.requestsPerSecond)) + " with clock-agent");
        System.out.println("library clock threads alive at each run's end (of 4: mybatis-plus's and Hutool's 'System"
                + " Clock', Sentinel's, Dubbo's, which Dubbo's start race may end at once): no agent "
                + threads(without) + "; clock-agent " + threads(with));
        System.out.println("clock-agent's cache=auto at exit, per round: " + with.stream()
                .map(run -> run.agentCache.isEmpty() ? "(no report)" : run.agentCache)
                .collect(Collectors.joining("; ")));
    }

    /** What one run measured, as a number. */
    private interface Measure {
        double of(LibraryClocksRun run);
    }

    private static String row(String window, List<LibraryClocksRun> without, List<LibraryClocksRun> with,
            Measure cpu) {
        List<Double> ratios = new ArrayList<>();
        for (int round = 0; round < with.size(); round++) {
            ratios.add(cpu.of(with.get(round)) / cpu.of(without.get(round)));
        }
        return "| " + window + " | " + millisPerSecond(without, cpu) + " | " + millisPerSecond(with, cpu) + " | "
                + StackComparison.ratioSummary(ratios) + " |";
    }

    /** {@code M (A-B)}: the median and range over the rounds, in ms of CPU per second. */
    private static String millisPerSecond(List<LibraryClocksRun> runs, Measure cpu) {
        List<Double> millis = runs.stream().map(run -> cpu.of(run) / 1e6).collect(Collectors.toList());
        return format("%.1f", Samples.median(millis)) + " (" + format("%.1f", millis.stream().mapToDouble(m -> m)
                .min().orElseThrow()) + "-" + format("%.1f", millis.stream().mapToDouble(m -> m).max().orElseThrow())
                + ")";
    }

    private static double median(List<LibraryClocksRun> runs, Measure measure) {
        return Samples.median(runs.stream().map(measure::of).collect(Collectors.toList()));
    }

    private static String threads(List<LibraryClocksRun> runs) {
        return runs.stream().map(run -> Integer.toString(run.libraryClockThreads)).collect(Collectors.joining(" "));
    }

    private static String format(String pattern, double value) {
        return String.format(Locale.ROOT, pattern, value);
    }
}
