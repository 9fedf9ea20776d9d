package io.clockagent.bench;

import io.clockagent.bench.rate.FixedRateReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the agent costs and saves at a given clock read rate: {@link FixedRateReader} reads
 * {@code System.currentTimeMillis()} at fixed average rates spread over two threads, steadily or in bursts, without
 * the agent, with it on its defaults ({@code cache=auto}) and with {@code cache=always}, in rounds, the three in
 * rotated order, on this host's clock and under the slow-clock emulation ({@code LD_PRELOAD}, every clock read a
 * system call, as on {@code hpet} or Xen hosts). Reports the process's CPU time per second in each (median over the
 * rounds, as a share of one core), the defaults' difference to the run without the agent with its per-round values,
 * whether the defaults were caching at exit, and at the top steady rate the share of the CPU spent reading the clock
 * that the agent saves. Rate 0, where the threads only park, is what the process spends without reading the clock.
 *
 * <p>With {@code --against JAR}, another build's defaults run as a fourth variant in the same rotation, and the table
 * adds its CPU and this build's difference to it, round by round.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.clockagent.bench.ReadRateComparison [--java PATH] [--rounds N]
 * [--seconds S] [--clock host|emulated] [--rates 0,R,...] [--bursts B/P,...|none] [--burst-rates R,...]
 * [--against JAR]}: the steady
 * rates, in reads per second, default to 0, 10,000, 100,000, 1,000,000 and 5,000,000 and start with 0; each burst
 * pattern {@code B/P} reads in the first B ms of every P ms (default {@code 10/1000,1/10}) at the burst rates
 * (default 100,000, 1,000,000, 2,000,000, 5,000,000 and 20,000,000 on average).
 */
public final class ReadRateComparison {

    private static final long[] DEFAULT_READS_PER_SECOND = {0, 10_000, 100_000, 1_000_000, 5_000_000};
    private static final String DEFAULT_BURSTS = "10/1000,1/10";
    private static final long[] DEFAULT_BURST_READS_PER_SECOND = {100_000, 1_000_000, 2_000_000, 5_000_000,
        20_000_000};
    private static final int THREADS = 2;
    private static final long WARMUP_SECONDS = 2;
    static final double BUDGET_EXTRA_POINTS = 0.5;
    /** The agent's CachingDecision.START_MARGIN: reads going direct start caching from this many times break-even. */
    private static final double START_MARGIN = 1.5;
    /* The variants' places: without the agent, its defaults, cache=always, and the other build's defaults. */
    private static final int WITHOUT = 0;
    private static final int DEFAULTS = 1;
    private static final int ALWAYS = 2;
    private static final int AGAINST = 3;
    /** With the defaults, a report that says what they did. */
    private static final String DEFAULTS_OPTIONS = "=report=summary";
    /** The other build's tolerance: its defaults' CPU, less this build's, may lie this far below (points). */
    static final double AGAINST_TOLERANCE_POINTS = 0.1;
    private static final Pattern CACHE_REPORT = Pattern.compile("report: cache=auto, (caching|direct) at the last"
            + " estimate of [\\d,]+ reads per second \\(break-even ([\\d,]+):.*, (\\d+) switches \\((\\d+) trial stops\\)");

    private ReadRateComparison() {
    }

    /** A read pattern at an average rate: steady (a 1 ms burst every 1 ms) or in bursts. */
    private record Row(int burstMillis, long periodMillis, long readsPerSecond) {
        boolean bursty() {
            return periodMillis > 1;
        }

        String pattern() {
            return bursty() ? burstMillis + " ms every " + periodMillis + " ms" : "steady";
        }
    }

    /** One way to run the reader: with which agent jar (null: none) and options. */
    private record Variant(Path jar, String options) {
    }

    /** One run's CPU and, with the defaults, what the agent's report said at exit. */
    private record Run(long cpuNanosPerSecond, boolean caching, long breakEvenReadsPerSecond, long switches,
            long trialStops) {
    }

    public static void main(String[] args) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        int rounds = 5;
        long timedSeconds = 5;
        String onlyClock = null;
        long[] readsPerSecond = DEFAULT_READS_PER_SECOND;
        String bursts = DEFAULT_BURSTS;
        long[] burstReadsPerSecond = DEFAULT_BURST_READS_PER_SECOND;
        Path against = null;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--java" -> java = Path.of(RunnerArguments.required(args[i], value));
                case "--rounds" -> rounds = Integer.parseInt(RunnerArguments.required(args[i], value));
                case "--seconds" -> timedSeconds = Long.parseLong(RunnerArguments.required(args[i], value));
                case "--clock" -> onlyClock = RunnerArguments.required(args[i], value);
                case "--rates" -> readsPerSecond = rates(RunnerArguments.required(args[i], value));
                case "--bursts" -> bursts = RunnerArguments.required(args[i], value);
                case "--burst-rates" -> burstReadsPerSecond = rates(RunnerArguments.required(args[i], value));
                case "--against" -> against = Path.of(RunnerArguments.required(args[i], value));
                default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "'; valid: --java PATH,"
                        + " --rounds N, --seconds S, --clock host|emulated, --rates 0,R,..., --bursts B/P,...|none,"
                        + " --burst-rates R,..., --against JAR");
            }
            i++;
        }
        if (readsPerSecond.length < 1 || readsPerSecond[0] != 0) {
            throw new IllegalArgumentException("--rates " + Arrays.toString(readsPerSecond) + ": give 0 first (the CPU"
                    + " without reads is the baseline of the savings)");
        }
        List<Row> rows = new ArrayList<>();
        for (long rate : readsPerSecond) {
            rows.add(new Row(1, 1, rate));
        }
        if (!bursts.equals("none")) {
            for (String burst : bursts.split(",")) {
                String[] lengths = burst.split("/");
                if (lengths.length != 2) {
                    throw new IllegalArgumentException("--bursts: '" + burst + "' is not BURST_MS/PERIOD_MS, for"
                            + " example 10/1000");
                }
                for (long rate : burstReadsPerSecond) {
                    rows.add(new Row(Integer.parseInt(lengths[0]), Long.parseLong(lengths[1]), rate));
                }
            }
        }
        if (rows.size() < 2) {
            throw new IllegalArgumentException("nothing to compare with rate 0: give more --rates or some --bursts");
        }
        JdkUnderTest jdk = JdkUnderTest.of(java);
        BenchmarkFiles files = BenchmarkFiles.locate();
        System.out.println("JDK " + jdk + ", " + Machine.hostFacts() + "; " + rounds + " rounds, " + THREADS
                + " reading threads, " + WARMUP_SECONDS + " s warm-up and " + timedSeconds + " s timed per run");
        List<Variant> variants = new ArrayList<>(List.of(new Variant(null, null),
                new Variant(files.agentJar(), DEFAULTS_OPTIONS), new Variant(files.agentJar(), "=cache=always")));
        if (against != null) {
            variants.add(new Variant(against, DEFAULTS_OPTIONS));
        }
        if (onlyClock == null || onlyClock.equals("host")) {
            compare("host clock", null, jdk, files, variants, rows, rounds, timedSeconds);
        }
        if (onlyClock == null || onlyClock.equals("emulated")) {
            compare("emulated slow clock (LD_PRELOAD)", files.slowClockLibrary(), jdk, files, variants, rows, rounds,
                    timedSeconds);
        }
    }

    private static long[] rates(String list) {
        return Arrays.stream(list.split(",")).mapToLong(Long::parseLong).toArray();
    }

    private static void compare(String clockName, Path slowClock, JdkUnderTest jdk, BenchmarkFiles files,
            List<Variant> variants, List<Row> rows, int rounds, long timedSeconds)
            throws IOException, InterruptedException {
        System.out.println();
        System.out.println(clockName + ", before: " + Machine.loadAverage());
        List<List<List<Run>>> byVariant = new ArrayList<>();
        for (int variant = 0; variant < variants.size(); variant++) {
            List<List<Run>> byRow = new ArrayList<>();
            for (int r = 0; r < rows.size(); r++) {
                byRow.add(new ArrayList<>());
            }
            byVariant.add(byRow);
        }
        for (int round = 0; round < rounds; round++) {
            System.err.print("  round " + (round + 1) + " of " + rounds + " ...");
            for (int r = 0; r < rows.size(); r++) {
                for (int turn = 0; turn < variants.size(); turn++) {
                    int variant = (turn + round + r) % variants.size();
                    byVariant.get(variant).get(r).add(run(jdk, files, slowClock, variants.get(variant),
                            rows.get(r), timedSeconds));
                }
            }
        }
        System.err.println();
        System.out.println("  after: " + Machine.loadAverage());
        List<List<Run>> without = byVariant.get(WITHOUT);
        List<List<Run>> defaults = byVariant.get(DEFAULTS);
        List<List<Run>> always = byVariant.get(ALWAYS);
        List<List<Run>> other = variants.size() > AGAINST ? byVariant.get(AGAINST) : null;
        List<Long> breakEvens = new ArrayList<>();
        defaults.forEach(runs -> runs.stream().filter(run -> run.breakEvenReadsPerSecond() > 0)
                .forEach(run -> breakEvens.add(run.breakEvenReadsPerSecond())));
        double breakEven = breakEvens.isEmpty() ? Double.NaN : Samples.median(breakEvens);
        System.out.println("  break-even as the agent measured it (median of the runs with the defaults): "
                + format("%,.0f", breakEven) + " reads per second");
        System.out.println();
        String otherName = other == null ? null : variants.get(AGAINST).jar().getFileName().toString();
        System.out.println("| pattern | reads per second | CPU without the agent (% of a core) | with `cache=always` | with"
                + " the defaults (`cache=auto`) | defaults' difference (points) | per round | defaults at exit: caching"
                + " in | switches, trial stops (medians) |" + (other == null ? "" : " defaults of " + otherName
                + " | this build less " + otherName + " (points), per round |"));
        System.out.println("| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |"
                + (other == null ? "" : " ---: | --- |"));
        double worstAgainstPoints = Double.NEGATIVE_INFINITY;
        double worstPoints = Double.NEGATIVE_INFINITY;
        List<String> burstMisses = new ArrayList<>();
        for (int r = 0; r < rows.size(); r++) {
            Row row = rows.get(r);
            double off = percent(Samples.median(cpu(without.get(r))));
            double on = percent(Samples.median(cpu(defaults.get(r))));
            List<String> differences = new ArrayList<>();
            long cachingRuns = defaults.get(r).stream().filter(Run::caching).count();
            for (int round = 0; round < rounds; round++) {
                differences.add(format("%+.2f", percent(defaults.get(r).get(round).cpuNanosPerSecond()
                        - without.get(r).get(round).cpuNanosPerSecond())));
            }
            worstPoints = Math.max(worstPoints, on - off);
            System.out.println("| " + row.pattern() + " | " + String.format(Locale.ROOT, "%,d", row.readsPerSecond())
                    + " | " + format("%.2f", off) + " | " + format("%.2f", percent(Samples.median(cpu(always.get(r)))))
                    + " | " + format("%.2f", on) + " | " + format("%+.2f", on - off) + " | "
                    + String.join(" ", differences) + " | " + cachingRuns + " of " + rounds + " | "
                    + format("%.0f", Samples.median(defaults.get(r).stream().map(Run::switches).toList())) + ", "
                    + format("%.0f", Samples.median(defaults.get(r).stream().map(Run::trialStops).toList())) + " |"
                    + (other == null ? "" : againstCells(defaults.get(r), other.get(r))));
            if (other != null) {
                worstAgainstPoints = Math.max(worstAgainstPoints, pairedMedianPoints(defaults.get(r), other.get(r)));
            }
            // Cached, as the CPU shows: the defaults save at least half of what cache=always saves (the state at exit
            // may be a trial's, or a park's between bursts).
            double alwaysOn = percent(Samples.median(cpu(always.get(r))));
            if (row.bursty() && row.readsPerSecond() >= START_MARGIN * breakEven && off - on < (off - alwaysOn) / 2) {
                burstMisses.add(row.pattern() + " at " + row.readsPerSecond() + ": should cache and save CPU");
            }
            if (row.bursty() && row.readsPerSecond() < breakEven && cachingRuns * 2 > rounds) {
                burstMisses.add(row.pattern() + " at " + row.readsPerSecond() + ": should read the direct clock");
            }
        }
        System.out.println();
        Row top = null;
        int topIndex = -1;
        for (int r = 0; r < rows.size(); r++) {
            if (!rows.get(r).bursty() && (top == null || rows.get(r).readsPerSecond() > top.readsPerSecond())) {
                top = rows.get(r);
                topIndex = r;
            }
        }
        if (top != null && top.readsPerSecond() > 0) {
            double reading = Samples.median(cpu(without.get(topIndex))) - Samples.median(cpu(without.get(0)));
            double saved = Samples.median(cpu(without.get(topIndex))) - Samples.median(cpu(defaults.get(topIndex)));
            System.out.println("at " + String.format(Locale.ROOT, "%,d", top.readsPerSecond()) + " steady reads per"
                    + " second the agent saves " + format("%.0f", 100 * saved / reading) + " % of the CPU spent reading"
                    + " the clock without it (" + format("%.2f", percent(saved)) + " of " + format("%.2f",
                    percent(reading)) + " points)");
        }
        System.out.println("budget: with the defaults, at most " + format("%.2f", BUDGET_EXTRA_POINTS) + " points of a"
                + " core more than without, at every rate (medians): worst " + format("%+.2f", worstPoints) + ": "
                + (worstPoints <= BUDGET_EXTRA_POINTS ? "met" : "MISSED"));
        if (other != null) {
            System.out.println("against " + otherName + ": this build's defaults no more CPU at any rate, within "
                    + format("%.2f", AGAINST_TOLERANCE_POINTS) + " points (paired medians): worst "
                    + format("%+.2f", worstAgainstPoints) + ": "
                    + (worstAgainstPoints <= AGAINST_TOLERANCE_POINTS ? "met" : "MISSED"));
        }
        System.out.println("bursts: caching (saving at least half what cache=always saves) from " + START_MARGIN
                + "x break-even, direct at exit in most rounds below it: "
                + (burstMisses.isEmpty() ? "met" : "MISSED: " + burstMisses));
    }

    /** The other build's median CPU, then this build's paired median difference to it and each round's. */
    private static String againstCells(List<Run> mine, List<Run> theirs) {
        List<String> differences = new ArrayList<>();
        for (int round = 0; round < mine.size(); round++) {
            differences.add(format("%+.2f", percent(mine.get(round).cpuNanosPerSecond()
                    - theirs.get(round).cpuNanosPerSecond())));
        }
        return " " + format("%.2f", percent(Samples.median(cpu(theirs)))) + " | "
                + format("%+.2f", pairedMedianPoints(mine, theirs)) + ": " + String.join(" ", differences) + " |";
    }

    /** The median over the rounds of this build's CPU less the other's, in points of a core. */
    private static double pairedMedianPoints(List<Run> mine, List<Run> theirs) {
        List<Double> differences = new ArrayList<>();
        for (int round = 0; round < mine.size(); round++) {
            differences.add(percent(mine.get(round).cpuNanosPerSecond() - theirs.get(round).cpuNanosPerSecond()));
        }
        return Samples.median(differences);
    }

    private static List<Long> cpu(List<Run> runs) {
        return runs.stream().map(Run::cpuNanosPerSecond).toList();
    }

    private static Run run(JdkUnderTest jdk, BenchmarkFiles files, Path slowClock, Variant variant, Row row,
            long timedSeconds) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(jdk.java().toString()));
        boolean agent = variant.jar() != null;
        if (agent) {
            command.add("-javaagent:" + variant.jar() + variant.options());
        }
        command.addAll(List.of("-cp", files.benchmarkJar().toString(), FixedRateReader.class.getName(),
                Long.toString(row.readsPerSecond()), Integer.toString(THREADS), Long.toString(WARMUP_SECONDS),
                Long.toString(timedSeconds), Integer.toString(row.burstMillis()), Long.toString(row.periodMillis())));
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
        long expectedReads = row.readsPerSecond() * timedSeconds;
        long reads = Long.parseLong(fields[3]);
        // The timed window holds one burst more or less than its share, as it falls.
        long oneBurstReads = row.readsPerSecond() * row.periodMillis() / 1000;
        if (Math.abs(reads - expectedReads) > expectedReads / 10 + oneBurstReads) {
            throw new IllegalStateException("read " + reads + " times instead of about " + expectedReads + ": " + line);
        }
        long cpuNanosPerSecond = Long.parseLong(fields[1]);
        Matcher report = CACHE_REPORT.matcher(output);
        if (!report.find()) {
            return new Run(cpuNanosPerSecond, !agent || variant.options().contains("cache=always"), 0, 0, 0);
        }
        return new Run(cpuNanosPerSecond, report.group(1).equals("caching"),
                Long.parseLong(report.group(2).replace(",", "")), Long.parseLong(report.group(3)),
                Long.parseLong(report.group(4)));
    }

    private static double percent(double cpuNanosPerSecond) {
        return cpuNanosPerSecond / 1e7;
    }

    private static String format(String pattern, double value) {
        return String.format(Locale.ROOT, pattern, value);
    }
}
