package io.clockagent.bench;

import io.clockagent.bench.classheavy.ClassHeavyProgram;
import io.clockagent.bench.stopwatch.PremainStopwatch;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;

/**
 * Times whole JVM runs with and without an agent: {@code java -version}, the fixed cost, and
 * {@link ClassHeavyProgram}, the cost per loaded class. Each variant differs from the plain run only by its
 * {@code -javaagent} argument: clock-agent, or for scale the do-nothing agent (for the class-heavy program also with
 * a transformer that changes nothing, see {@link io.clockagent.bench.noop.NoopAgent}; clock-agent with its Java
 * transformer alone, as where the native class filter cannot start; and clock-agent counting call sites, for which
 * the native filter shows each class it rewrites to the Java side to count, the price of {@code report} and
 * {@code verbose}).
 * The variants run in rounds, one run of each per round and the order rotated every round, after one untimed round;
 * the tables give medians of the wall time from process start to exit, the budgets' measure, and of the process's
 * CPU time ({@link ChildCpu}), which other work on a shared machine disturbs less. A third comparison times the
 * agents' {@code premain} alone, between the two calls of {@link PremainStopwatch}: the share of a start that the
 * agent itself takes before {@code main}, apart from the spread of the rest of the start. Single-threaded, and runs
 * one JVM at a time.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.clockagent.bench.StartupComparison [--java PATH] [--version-runs N]
 * [--class-heavy-runs N] [--premain-runs N] [--native-only] [--only version|class-heavy|premain]}; {@code --java} picks
 * the JDK under test (default: this one); {@code --native-only} runs only no agent, the do-nothing native agent and
 * clock-agent through {@code -agentpath}, the starts the {@code -agentpath} budget compares.
 */
public final class StartupComparison {

    static final double BUDGET_VERSION_EXTRA_MILLIS = 60.0;
    /** Through {@code -agentpath}, where {@code java.instrument} and the archived module graph cost nothing. */
    static final double BUDGET_AGENT_PATH_VERSION_EXTRA_MILLIS = 5.0;
    static final double BUDGET_CLASS_HEAVY_RATIO = 1.05;
    /** Every package of the class-heavy jars, so that the agent examines every class they define. */
    static final String CLASS_HEAVY_INCLUDE = "org.apache:org.h2:jakarta";

    private final String java;
    private final BenchmarkFiles files;
    /**
     * Only the starts the {@code -agentpath} budget compares: no agent, the do-nothing native agent and clock-agent
     * through {@code -agentpath}, for three times the rounds in the same minutes.
     */
    private final boolean nativeOnly;

    private StartupComparison(String java, BenchmarkFiles files, boolean nativeOnly) {
        this.java = java;
        this.files = files;
        this.nativeOnly = nativeOnly;
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        int versionRuns = 20;
        int classHeavyRuns = 10;
        int premainRuns = 30;
        String only = null;
        boolean nativeOnly = false;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--java" -> java = RunnerArguments.required(args[i], value);
                case "--version-runs" -> versionRuns = Integer.parseInt(RunnerArguments.required(args[i], value));
                case "--class-heavy-runs" -> classHeavyRuns = Integer.parseInt(RunnerArguments.required(args[i], value));
                case "--premain-runs" -> premainRuns = Integer.parseInt(RunnerArguments.required(args[i], value));
                case "--only" -> only = RunnerArguments.required(args[i], value);
                case "--native-only" -> {
                    nativeOnly = true;
                    // A flag: no value follows it.
                    continue;
                }
                default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "'; valid: --java PATH,"
                        + " --version-runs N, --class-heavy-runs N, --premain-runs N, --native-only,"
                        + " --only version|class-heavy|premain");
            }
            i++;
        }
        if (nativeOnly && "premain".equals(only)) {
            throw new IllegalArgumentException("--native-only has no premain to time: -agentpath runs no premain; valid"
                    + " with it: --only version|class-heavy");
        }
        StartupComparison comparison = new StartupComparison(java, BenchmarkFiles.locate(), nativeOnly);
        System.out.println(comparison.describeJdk() + ", " + Machine.hostFacts());
        if (only == null || only.equals("version")) {
            comparison.compareVersion(versionRuns);
        }
        if (only == null || only.equals("class-heavy")) {
            comparison.compareClassHeavy(classHeavyRuns);
        }
        if (!nativeOnly && (only == null || only.equals("premain"))) {
            comparison.comparePremain(premainRuns);
        }
    }

    private String describeJdk() throws IOException, InterruptedException {
        String output = launch(List.of(java, "-version")).output;
        return java + ": " + output.lines().findFirst().orElse("?");
    }

    private void compareVersion(int runs) throws IOException, InterruptedException {
        Variant plain = new Variant("plain", List.of());
        List<Variant> variants = new ArrayList<>(List.of(plain));
        Variant noop = null;
        Variant openingNoop = null;
        Variant clockAgent = null;
        if (!nativeOnly) {
            noop = new Variant("do-nothing agent", List.of("-javaagent:" + files.noopAgentJar()));
            openingNoop = new Variant("do-nothing agent opening java.lang",
                    List.of("-javaagent:" + files.noopAgentJar() + "=openJavaLang"));
            clockAgent = new Variant("clock-agent", List.of("-javaagent:" + files.agentJar()));
            variants.addAll(List.of(noop, openingNoop, clockAgent));
        }
        Variant nativeNoops = nativeOnly
                ? addVariant(variants, "do-nothing native agent", "the do-nothing native agent",
                        () -> List.of("-agentpath:" + files.noopNativeAgent()))
                : addVariant(variants, "do-nothing Java and native agents", "the do-nothing native agent",
                        () -> List.of("-javaagent:" + files.noopAgentJar(), "-agentpath:" + files.noopNativeAgent()));
        Variant agentPath = addVariant(variants, "clock-agent, -agentpath", "clock-agent through -agentpath",
                () -> List.of("-agentpath:" + files.agentPathLibrary()));
        for (Variant variant : variants) {
            variant.command.add(0, java);
            variant.command.add("-version");
        }
        Variant shown = nativeOnly ? agentPath : clockAgent;
        System.out.println();
        System.out.println("`java -version`: " + String.join(" ", shown.command));
        System.out.println("  clock-agent says: " + agentBanner(launch(shown.command).output));

        runRounds(variants, runs, null);
        System.out.println();
        System.out.println("| `java -version` | runs | median ms | min ms | max ms | median - plain median"
                + " | median of per-round differences | process CPU median ms (- plain) |");
        System.out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        for (Variant variant : variants) {
            boolean isPlain = variant == plain;
            System.out.println(wallColumns(variant)
                    + (isPlain ? "" : signedMillis(variant.wall.medianNanos() - plain.wall.medianNanos())) + " | "
                    + (isPlain ? "" : signedMillis(variant.wall.pairedMedianDifferenceNanos(plain.wall))) + " | "
                    + millis(variant.cpu.medianNanos())
                    + (isPlain ? "" : " (" + signedMillis(variant.cpu.medianNanos() - plain.cpu.medianNanos()) + ")")
                    + " |");
        }
        System.out.println();
        if (clockAgent != null) {
            double extraMillis = (clockAgent.wall.medianNanos() - plain.wall.medianNanos()) / 1e6;
            System.out.println("budget: clock-agent adds at most " + format("%.0f", BUDGET_VERSION_EXTRA_MILLIS)
                    + " ms (median) to `java -version`: " + format("%+.1f", extraMillis) + " ms: "
                    + (extraMillis <= BUDGET_VERSION_EXTRA_MILLIS ? "met" : "MISSED"));
            double ownShareMillis = clockAgent.wall.pairedMedianDifferenceNanos(noop.wall) / 1e6;
            System.out.println("budget: clock-agent's own share, above the do-nothing agent, at most "
                    + format("%.0f", StackComparison.BUDGET_OWN_SHARE_MILLIS) + " ms (median of per-round differences): "
                    + format("%+.1f", ownShareMillis) + " ms: "
                    + (ownShareMillis <= StackComparison.BUDGET_OWN_SHARE_MILLIS ? "met" : "MISSED")
                    + "; above the do-nothing agent opening java.lang (the floor from Java 24 on): "
                    + format("%+.1f", clockAgent.wall.pairedMedianDifferenceNanos(openingNoop.wall) / 1e6) + " ms"
                    + (nativeNoops == null ? "" : "; above the do-nothing Java and native agents (the floor of a"
                            + " -javaagent whose hook sees every class file): "
                            + format("%+.1f", clockAgent.wall.pairedMedianDifferenceNanos(nativeNoops.wall) / 1e6)
                            + " ms"));
        }
        if (agentPath != null) {
            List<Double> differencesNanos = agentPath.wall.pairedDifferencesNanos(plain.wall);
            double agentPathExtraMillis = Samples.median(differencesNanos) / 1e6;
            System.out.println("budget: clock-agent through -agentpath adds at most "
                    + format("%.0f", BUDGET_AGENT_PATH_VERSION_EXTRA_MILLIS) + " ms (median of per-round differences)"
                    + " to `java -version`: " + format("%+.1f", agentPathExtraMillis) + " ms"
                    + differenceInterval(differencesNanos) + ": "
                    + (agentPathExtraMillis <= BUDGET_AGENT_PATH_VERSION_EXTRA_MILLIS ? "met" : "MISSED"));
        }
    }

    /** {@code  (95 % interval of the median A to B ms)} of per-round differences, or nothing for too few rounds. */
    private static String differenceInterval(List<Double> differencesNanos) {
        if (differencesNanos.size() < 6) {
            return "";
        }
        double[] bounds = Samples.medianInterval95(differencesNanos);
        return " (95 % interval of the median " + format("%+.1f", bounds[0] / 1e6) + " to "
                + format("%+.1f", bounds[1] / 1e6) + " ms)";
    }

    private void compareClassHeavy(int runs) throws IOException, InterruptedException {
        List<Path> jars = files.classHeavyJars();
        List<Path> classPath = new ArrayList<>();
        classPath.add(files.benchmarkJar());
        classPath.addAll(jars);
        List<String> program = new ArrayList<>(List.of("-cp", BenchmarkFiles.classPath(classPath),
                ClassHeavyProgram.class.getName()));
        for (Path jar : jars) {
            program.add(jar.toString());
        }
        String agentArgument = "-javaagent:" + files.agentJar() + "=include=" + CLASS_HEAVY_INCLUDE;
        Variant plain = new Variant("plain", List.of());
        List<Variant> variants = new ArrayList<>(List.of(plain));
        Variant unchangingTransformer = null;
        Variant clockAgent = null;
        Variant javaTransformer = null;
        Variant countingSites = null;
        if (!nativeOnly) {
            unchangingTransformer = new Variant("do-nothing agent, unchanging transformer",
                    List.of("-javaagent:" + files.noopAgentJar() + "=transformer"));
            clockAgent = new Variant("clock-agent", List.of(agentArgument));
            javaTransformer = new Variant("clock-agent, nativeFilter=false",
                    List.of(agentArgument + ",nativeFilter=false"));
            // Counting call sites: the native filter shows each class it rewrites to the Java side to count.
            countingSites = new Variant("clock-agent, report=summary", List.of(agentArgument + ",report=summary"));
            variants.addAll(List.of(new Variant("do-nothing agent", List.of("-javaagent:" + files.noopAgentJar())),
                    unchangingTransformer, clockAgent, javaTransformer, countingSites));
        }
        Variant agentPath = addVariant(variants, "clock-agent, -agentpath", "clock-agent through -agentpath",
                () -> List.of("-agentpath:" + files.agentPathLibrary() + "=include=" + CLASS_HEAVY_INCLUDE));
        // The floor under the -agentpath budget: a native agent whose hook sees every class file and keeps it.
        Variant nativeNoop = agentPath == null ? null : addVariant(variants, "do-nothing native agent",
                "the do-nothing native agent", () -> List.of("-agentpath:" + files.noopNativeAgent()));
        for (Variant variant : variants) {
            variant.command.add(0, java);
            variant.command.addAll(program);
        }

        Variant shown = nativeOnly ? agentPath : clockAgent;
        List<String> verbose = new ArrayList<>(shown.command);
        verbose.set(1, shown.command.get(1) + ",verbose=true");
        Launch check = launch(verbose);
        long rewritten = check.output.lines().filter(line -> line.contains(" rewrote ")).count();
        System.out.println();
        System.out.println("class-heavy program: " + String.join(" ", shown.command));
        System.out.println("  it says: " + programLine(check.output));
        System.out.println("  clock-agent says: " + agentBanner(check.output));
        System.out.println("  with verbose=true the agent reports " + rewritten
                + " rewritten classes (classes that call currentTimeMillis, once per loader)");
        if (!nativeOnly) {
            List<String> nativeRequested = new ArrayList<>(clockAgent.command);
            nativeRequested.set(1, agentArgument + ",nativeFilter=true");
            String nativeRefused = launch(nativeRequested).output.lines()
                    .filter(line -> line.startsWith("clock-agent: native class filter not started")).findFirst()
                    .orElse(null);
            if (nativeRefused != null) {
                // By default it would fall back in silence, and the clock-agent row would measure the Java transformer.
                throw new IllegalStateException("the native class filter cannot start here: " + nativeRefused);
            }
            System.out.println("  with nativeFilter=true the agent says nothing more: the native class filter starts");
        }

        String expectedCounts = programLine(check.output);
        runRounds(variants, runs, output -> classHeavyNanos(output, expectedCounts));
        System.out.println();
        System.out.println("| class-heavy program | runs | median ms | min ms | max ms | median / plain median"
                + " | median of per-round ratios | in-program median ms (/ plain) | process CPU median ms (/ plain) |");
        System.out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        for (Variant variant : variants) {
            System.out.println(wallColumns(variant)
                    + format("%.3f", variant.wall.medianNanos() / plain.wall.medianNanos()) + " | "
                    + format("%.3f", variant.wall.pairedMedianRatio(plain.wall)) + " | "
                    + millis(variant.inProgram.medianNanos()) + " ("
                    + format("%.3f", variant.inProgram.medianNanos() / plain.inProgram.medianNanos()) + ") | "
                    + millis(variant.cpu.medianNanos()) + " ("
                    + format("%.3f", variant.cpu.medianNanos() / plain.cpu.medianNanos()) + ") |");
        }
        System.out.println();
        if (clockAgent != null) {
            double ratio = clockAgent.wall.medianNanos() / plain.wall.medianNanos();
            // What clock-agent adds to what the JVM charges any agent that registers a transformer: the part it
            // controls.
            System.out.println("clock-agent over the unchanging transformer: "
                    + format("%.3f", clockAgent.wall.medianNanos() / unchangingTransformer.wall.medianNanos())
                    + "x (median of per-round ratios " + format("%.3f",
                            clockAgent.wall.pairedMedianRatio(unchangingTransformer.wall)) + "x)");
            System.out.println("clock-agent with its Java transformer alone (nativeFilter=false): "
                    + format("%.3f", javaTransformer.wall.medianNanos() / plain.wall.medianNanos())
                    + "x (median of per-round ratios "
                    + format("%.3f", javaTransformer.wall.pairedMedianRatio(plain.wall)) + "x)");
            System.out.println("clock-agent counting call sites (report=summary), over the default: " + format("%.3f",
                    countingSites.wall.medianNanos() / clockAgent.wall.medianNanos()) + "x (median of per-round ratios "
                    + format("%.3f", countingSites.wall.pairedMedianRatio(clockAgent.wall)) + "x)");
            System.out.println("budget: with clock-agent the class-heavy program takes at most "
                    + format("%.2f", BUDGET_CLASS_HEAVY_RATIO) + "x as long (median wall time): "
                    + format("%.3f", ratio) + "x: " + (ratio <= BUDGET_CLASS_HEAVY_RATIO ? "met" : "MISSED"));
        }
        if (agentPath != null) {
            System.out.println("clock-agent through -agentpath, per round: "
                    + StackComparison.ratioSummary(agentPath.wall.pairedRatios(plain.wall)) + " without an agent"
                    + (nativeNoop == null ? "" : ", "
                            + StackComparison.ratioSummary(agentPath.wall.pairedRatios(nativeNoop.wall))
                            + " of the do-nothing native agent"));
            System.out.println("budget: through -agentpath, wall time "
                    + StackComparison.agentPathBudget(agentPath.wall.medianNanos(), plain.wall.medianNanos(),
                            nativeNoop == null ? Double.NaN : nativeNoop.wall.medianNanos()));
        }
    }

    /** The JVM arguments of a variant, whose files may have to be built or written first, which can fail. */
    private interface VariantArguments {
        List<String> make() throws IOException, InterruptedException;
    }

    /**
     * A variant added to {@code variants}; where its files cannot be made (no gcc, no library for this platform), none
     * and a notice naming {@code leftOut}, but with {@code --native-only}, whose every start must run, the failure.
     */
    private Variant addVariant(List<Variant> variants, String name, String leftOut, VariantArguments arguments)
            throws IOException, InterruptedException {
        try {
            Variant variant = new Variant(name, arguments.make());
            variants.add(variant);
            return variant;
        } catch (IOException | IllegalStateException unavailable) {
            if (nativeOnly) {
                throw unavailable;
            }
            System.out.println("notice: " + leftOut + " is left out: " + unavailable.getMessage());
            return null;
        }
    }

    /**
     * {@code java -version} with each agent between the two calls of the premain stopwatch: the do-nothing agent (what
     * {@code -javaagent} charges for a jar and an empty {@code premain}), the do-nothing agent opening
     * {@code java.lang} (the floor from Java 24 on) and clock-agent; the table gives the stopwatch's readings, and
     * clock-agent's own share is the median of its per-round differences to the do-nothing agent's.
     */
    private void comparePremain(int runs) throws IOException, InterruptedException {
        String stopwatch = "-javaagent:" + files.premainStopwatchJar();
        List<Variant> variants = new ArrayList<>();
        for (Variant agent : List.of(
                new Variant("do-nothing agent", List.of("-javaagent:" + files.noopAgentJar())),
                new Variant("do-nothing agent opening java.lang",
                        List.of("-javaagent:" + files.noopAgentJar() + "=openJavaLang")),
                new Variant("clock-agent", List.of("-javaagent:" + files.agentJar())))) {
            agent.command.add(0, java);
            agent.command.add(1, stopwatch + "=start");
            agent.command.add(stopwatch + "=stop");
            agent.command.add("-version");
            variants.add(agent);
        }
        Variant noop = variants.get(0);
        Variant openingNoop = variants.get(1);
        Variant clockAgent = variants.get(2);
        System.out.println();
        System.out.println("premain: " + String.join(" ", clockAgent.command));
        System.out.println("  clock-agent says: " + agentBanner(launch(clockAgent.command).output));

        runRounds(variants, runs, StartupComparison::premainNanos);
        System.out.println();
        System.out.println("| `-javaagent` before `main` (premain stopwatch) | runs | median ms | min ms | max ms"
                + " | median of per-round differences to the do-nothing agent |");
        System.out.println("| --- | ---: | ---: | ---: | ---: | ---: |");
        for (Variant variant : variants) {
            System.out.println("| " + variant.name + " | " + variant.inProgram.count() + " | "
                    + millis(variant.inProgram.medianNanos()) + " | " + millis(variant.inProgram.minNanos()) + " | "
                    + millis(variant.inProgram.maxNanos()) + " | "
                    + (variant == noop ? "" : signedMillis(variant.inProgram.pairedMedianDifferenceNanos(noop.inProgram)))
                    + " |");
        }
        double ownShareMillis = clockAgent.inProgram.pairedMedianDifferenceNanos(noop.inProgram) / 1e6;
        System.out.println();
        System.out.println("clock-agent's premain above the do-nothing agent's: " + format("%+.2f", ownShareMillis)
                + " ms; above the do-nothing agent opening java.lang: " + format("%+.2f",
                        clockAgent.inProgram.pairedMedianDifferenceNanos(openingNoop.inProgram) / 1e6) + " ms");
    }

    private static long premainNanos(String output) {
        return output.lines().filter(line -> line.startsWith(PremainStopwatch.LINE_PREFIX))
                .mapToLong(line -> Long.parseLong(line.substring(PremainStopwatch.LINE_PREFIX.length())))
                .findFirst().orElseThrow(() -> new IllegalStateException("no premain stopwatch line\n" + output));
    }

    /**
     * One untimed round, then {@code runs} timed rounds; {@code inProgramNanos}, where given, reads each run's output
     * for a time of its own, or throws if the run did not do what it must.
     */
    private void runRounds(List<Variant> variants, int runs, ToLongFunction<String> inProgramNanos)
            throws IOException, InterruptedException {
        System.out.println("  before: " + Machine.loadAverage());
        for (int round = -1; round < runs; round++) {
            System.err.print(round < 0 ? "  untimed round ..." : "\r  round " + (round + 1) + " of " + runs + " ...");
            for (int i = 0; i < variants.size(); i++) {
                Variant variant = variants.get(Math.floorMod(round + i, variants.size()));
                Launch launch = launch(variant.command);
                if (inProgramNanos != null) {
                    long nanos = inProgramNanos.applyAsLong(launch.output);
                    if (round >= 0) {
                        variant.inProgram.add(nanos);
                    }
                }
                if (round >= 0) {
                    variant.wall.add(launch.wallNanos);
                    variant.cpu.add(launch.cpuNanos);
                }
            }
        }
        System.err.println();
        System.out.println("  after: " + Machine.loadAverage());
    }

    /** The columns both tables start with: {@code | name | runs | median ms | min ms | max ms | }. */
    private static String wallColumns(Variant variant) {
        return "| " + variant.name + " | " + variant.wall.count() + " | " + millis(variant.wall.medianNanos()) + " | "
                + millis(variant.wall.minNanos()) + " | " + millis(variant.wall.maxNanos()) + " | ";
    }

    private static Launch launch(List<String> command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        long cpuBeforeNanos = ChildCpu.reapedNanos();
        long startNanos = System.nanoTime();
        Process process = builder.start();
        byte[] output = process.getInputStream().readAllBytes();
        int status = process.waitFor();
        long wallNanos = System.nanoTime() - startNanos;
        long cpuNanos = ChildCpu.reapedNanos() - cpuBeforeNanos;
        String text = new String(output, StandardCharsets.UTF_8);
        if (status != 0) {
            throw new IllegalStateException("exit status " + status + " from " + String.join(" ", command) + "\n" + text);
        }
        return new Launch(text, wallNanos, cpuNanos);
    }

    /** The agent's first line, which must say that it is active: a run without it would measure nothing. */
    private static String agentBanner(String output) {
        String banner = output.lines().filter(line -> line.startsWith("clock-agent: ")).findFirst().orElse(null);
        if (banner == null || banner.startsWith("clock-agent: off")) {
            throw new IllegalStateException("clock-agent is not active in this run:\n" + output);
        }
        return banner;
    }

    /**
     * The class-heavy program's own time in a run, which must report the class counts that {@code expectedLine} does,
     * so that no variant silently does less work.
     */
    private static long classHeavyNanos(String output, String expectedLine) {
        String line = programLine(output);
        if (!counts(line).equals(counts(expectedLine))) {
            throw new IllegalStateException("a run reported '" + line + "', expected the counts in '" + expectedLine
                    + "'");
        }
        return field(line, "nanos");
    }

    private static String programLine(String output) {
        return output.lines().filter(line -> line.startsWith("classes=")).findFirst()
                .orElseThrow(() -> new IllegalStateException("no result line from the class-heavy program\n" + output));
    }

    private static long field(String programLine, String key) {
        for (String pair : programLine.split(" ")) {
            if (pair.startsWith(key + "=")) {
                return Long.parseLong(pair.substring(key.length() + 1));
            }
        }
        throw new IllegalStateException("no " + key + " in '" + programLine + "'");
    }

    /** The part of the program's line that must be the same in every run: what it loaded, not how fast. */
    private static String counts(String programLine) {
        return programLine.substring(0, programLine.indexOf(" nanos="));
    }

    private static String millis(double nanos) {
        return format("%.1f", nanos / 1e6);
    }

    private static String signedMillis(double nanos) {
        return format("%+.1f ms", nanos / 1e6);
    }

    private static String format(String pattern, Object... values) {
        return String.format(Locale.ROOT, pattern, values);
    }

    /** One way of launching: its full command line and its samples. */
    private static final class Variant {
        final String name;
        final List<String> command;
        final Samples wall = new Samples();
        final Samples inProgram = new Samples();
        final Samples cpu = new Samples();

        Variant(String name, List<String> jvmArguments) {
            this.name = name;
            this.command = new ArrayList<>(jvmArguments);
        }
    }

    private record Launch(String output, long wallNanos, long cpuNanos) {
    }
}
