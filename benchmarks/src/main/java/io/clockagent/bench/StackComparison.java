package io.clockagent.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Runs each stack service of {@code stacks/} without an agent, with the do-nothing Java agent (the JVM's own price of
 * any {@code -javaagent}), with the do-nothing Java agent opening {@code java.lang} (the floor under clock-agent's
 * own share from Java 24 on), with the do-nothing Java and native agents together (the floor of a {@code -javaagent}
 * whose hook sees every class file: the JVM then reads each class it takes from the class-data archive again, to show
 * it), with a do-nothing native agent (the price of an agent that sees every class file through
 * {@code -agentpath} instead; built with {@code gcc}, and left out with a notice where that fails), with clock-agent
 * through {@code -agentpath} (where the jar carries its library) and with clock-agent through {@code -javaagent}, on
 * its default options, in rounds, one run of each per round in rotated order, and reports side by side
 * the medians over the rounds of: startup (launch to listening), throughput under closed-loop load from
 * {@value #CLIENTS} client threads, and the median and 99th-percentile latency; with the median and range of
 * clock-agent's per-round ratios to the run without an agent. Single-threaded apart from the clients; one service at
 * a time.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.clockagent.bench.StackComparison [--java PATH] [--rounds N]
 * [--warmup-seconds S] [--seconds S] [--startup-only] [--native-only] [--recipe] [--only STACK]}; STACK is
 * spring-boot-service,
 * netty-service, kotlin-service or pool-service. {@code --startup-only} stops each service once it listens, for more
 * rounds in the same time; {@code --native-only} runs only no agent, the do-nothing native agent and clock-agent
 * through {@code -agentpath}, which the {@code -agentpath} budget compares, for more than twice the rounds in the same
 * time; {@code --recipe} runs the same three with each agent given as the Kubernetes recipe gives it
 * ({@code JAVA_TOOL_OPTIONS=-agentpath:...}, deploy/kubernetes/deployment.yaml), which the JVM reads and announces
 * on stderr before it starts the agent.
 */
public final class StackComparison {

    static final double BUDGET_STARTUP_RATIO = 1.05;
    /** clock-agent's own share of a start through {@code -javaagent}: above what the do-nothing Java agent costs. */
    static final double BUDGET_OWN_SHARE_MILLIS = 3.0;
    /** Startup through {@code -agentpath}, against no agent at all. */
    static final double BUDGET_AGENT_PATH_RATIO = 1.03;
    /** Above this, the do-nothing native agent's own start shows a run too noisy for the ratio above to hold. */
    static final double NATIVE_NOOP_NOISY_RATIO = 1.02;
    static final double BUDGET_AGENT_PATH_TO_NATIVE_NOOP_RATIO = 1.01;
    private static final int CLIENTS = 2;
    private static final String JAVA_NOOP = "do-nothing Java agent";
    private static final String NATIVE_NOOP = "do-nothing native agent";
    private static final String OPENING_NOOP = "do-nothing Java agent opening java.lang";
    private static final String BOTH_NOOPS = "do-nothing Java and native agents";
    private static final String AGENT_PATH = "clock-agent, -agentpath";
    /** The variable the Kubernetes recipe starts the agent through. */
    private static final String RECIPE_VARIABLE = "JAVA_TOOL_OPTIONS";

    /** One way to start a service: a name for the table, and the JVM options and environment that make it. */
    private record Variant(String name, List<String> jvmOptions, Map<String, String> environment) {

        Variant(String name, List<String> jvmOptions) {
            this(name, jvmOptions, Map.of());
        }
    }

    private StackComparison() {
    }

    public static void main(String[] args) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        int rounds = 5;
        long warmupSeconds = 5;
        long timedSeconds = 5;
        String only = null;
        boolean startupOnly = false;
        boolean nativeOnly = false;
        boolean recipe = false;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--java" -> java = Path.of(RunnerArguments.required(args[i], value));
                case "--rounds" -> rounds = Integer.parseInt(RunnerArguments.required(args[i], value));
                case "--warmup-seconds" -> warmupSeconds = Long.parseLong(RunnerArguments.required(args[i], value));
                case "--seconds" -> timedSeconds = Long.parseLong(RunnerArguments.required(args[i], value));
                case "--only" -> only = RunnerArguments.required(args[i], value);
                case "--startup-only" -> {
                    startupOnly = true;
                    // A flag: no value follows it.
                    continue;
                }
                case "--native-only" -> {
                    nativeOnly = true;
                    continue;
                }
                case "--recipe" -> {
                    recipe = true;
                    continue;
                }
                default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "'; valid: --java PATH,"
                        + " --rounds N, --warmup-seconds S, --seconds S, --startup-only, --native-only, --recipe,"
                        + " --only STACK");
            }
            i++;
        }
        if (startupOnly) {
            warmupSeconds = 0;
            timedSeconds = 0;
        }
        String onlyStack = only;
        if (onlyStack != null && Arrays.stream(ServiceStack.values()).noneMatch(s -> s.module().equals(onlyStack))) {
            throw new IllegalArgumentException("unknown stack '" + onlyStack + "' for --only; valid: "
                    + Arrays.stream(ServiceStack.values()).map(ServiceStack::module).collect(Collectors.joining(", ")));
        }
        JdkUnderTest jdk = JdkUnderTest.of(java);
        BenchmarkFiles files = BenchmarkFiles.locate();
        List<Variant> variants = recipe ? recipeVariants(files) : nativeOnly ? nativeVariants(files) : variants(files);
        Path work = Files.createTempDirectory("stack-comparison");
        System.out.println("JDK " + jdk + ", " + Machine.hostFacts() + "; " + rounds + " rounds, " + (startupOnly
                ? "startup only" : CLIENTS + " clients, " + warmupSeconds + " s warm-up and " + timedSeconds
                + " s timed per run"));
        for (ServiceStack stack : ServiceStack.values()) {
            if (only != null && !only.equals(stack.module())) {
                continue;
            }
            if (jdk.featureVersion() < stack.oldestJdk()) {
                System.out.println();
                System.out.println(stack.module() + ": not run, it needs Java " + stack.oldestJdk());
                continue;
            }
            compare(stack, jdk, files, variants, work.resolve(stack.module()), rounds,
                    TimeUnit.SECONDS.toNanos(warmupSeconds), TimeUnit.SECONDS.toNanos(timedSeconds));
        }
    }

    /**
     * No agent first, the do-nothing Java agent second and clock-agent last: the ratios compare the first and the last,
     * the own share the second and the last.
     */
    private static List<Variant> variants(BenchmarkFiles files) {
        List<Variant> variants = new ArrayList<>();
        variants.add(new Variant("no agent", List.of()));
        variants.add(new Variant(JAVA_NOOP, List.of("-javaagent:" + files.noopAgentJar())));
        variants.add(new Variant(OPENING_NOOP, List.of("-javaagent:" + files.noopAgentJar() + "=openJavaLang")));
        try {
            variants.add(new Variant(NATIVE_NOOP, List.of("-agentpath:" + files.noopNativeAgent())));
            variants.add(new Variant(BOTH_NOOPS, List.of("-javaagent:" + files.noopAgentJar(),
                    "-agentpath:" + files.noopNativeAgent())));
        } catch (IOException | InterruptedException | IllegalStateException unbuilt) {
            System.out.println("notice: the do-nothing native agent is left out: " + unbuilt.getMessage());
        }
        try {
            variants.add(new Variant(AGENT_PATH, List.of("-agentpath:" + files.agentPathLibrary())));
        } catch (IOException | InterruptedException | IllegalStateException unwritten) {
            System.out.println("notice: clock-agent through -agentpath is left out: " + unwritten.getMessage());
        }
        variants.add(new Variant("clock-agent", List.of("-javaagent:" + files.agentJar())));
        return variants;
    }

    /** No agent, the do-nothing native agent and clock-agent through -agentpath, which must all run. */
    private static List<Variant> nativeVariants(BenchmarkFiles files) throws IOException, InterruptedException {
        return List.of(new Variant("no agent", List.of()),
                new Variant(NATIVE_NOOP, List.of("-agentpath:" + files.noopNativeAgent())),
                new Variant(AGENT_PATH, List.of("-agentpath:" + files.agentPathLibrary())));
    }

    /** The same three, each agent through the recipe's variable rather than the command line. */
    private static List<Variant> recipeVariants(BenchmarkFiles files) throws IOException, InterruptedException {
        return List.of(new Variant("no agent", List.of()),
                new Variant(NATIVE_NOOP, List.of(), Map.of(RECIPE_VARIABLE, "-agentpath:" + files.noopNativeAgent())),
                new Variant(AGENT_PATH, List.of(), Map.of(RECIPE_VARIABLE, "-agentpath:" + files.agentPathLibrary())));
    }

    private static void compare(ServiceStack stack, JdkUnderTest jdk, BenchmarkFiles files, List<Variant> variants,
            Path work, int rounds, long warmupNanos, long timedNanos) throws Exception {
        List<List<ServiceRun>> runs = new ArrayList<>();
        for (int variant = 0; variant < variants.size(); variant++) {
            runs.add(new ArrayList<>());
        }
        System.out.println();
        System.out.println(stack.module() + " (" + files.stackJar(stack.module()) + "), before: "
                + Machine.loadAverage());
        for (int round = -1; round < rounds; round++) {
            System.err.print(round < 0 ? "  untimed round ..." : "  round " + (round + 1) + " of " + rounds + " ...");
            for (int turn = 0; turn < variants.size(); turn++) {
                int variant = Math.floorMod(turn + round, variants.size());
                List<String> command = new ArrayList<>(List.of(jdk.java().toString()));
                command.addAll(variants.get(variant).jvmOptions());
                Path runDirectory = work.resolve("round-" + round + "-" + variant);
                command.addAll(stack.jvmOptions(runDirectory));
                command.addAll(List.of("-jar", files.stackJar(stack.module()).toString()));
                ServiceRun run = ServiceRun.run(stack, command, variants.get(variant).environment(), runDirectory,
                        CLIENTS, warmupNanos, timedNanos);
                if (round >= 0) {
                    runs.get(variant).add(run);
                }
            }
        }
        System.err.println();
        System.out.println("  after: " + Machine.loadAverage());
        System.out.println();
        boolean loaded = timedNanos > 0;
        List<String> header = new ArrayList<>(List.of(stack.module(), "startup ms"));
        if (loaded) {
            header.addAll(List.of("throughput per s", "median latency µs", "p99 latency µs"));
        }
        System.out.println(tableRow(header));
        System.out.println("| --- |" + " ---: |".repeat(header.size() - 1));
        for (int variant = 0; variant < variants.size(); variant++) {
            List<ServiceRun> variantRuns = runs.get(variant);
            List<String> cells = new ArrayList<>(List.of(variants.get(variant).name(),
                    format("%.1f", median(variantRuns, run -> run.startupNanos / 1e6))));
            if (loaded) {
                cells.addAll(List.of(format("%.0f", median(variantRuns, run -> run.requestsPerSecond)),
                        format("%.1f", median(variantRuns, run -> run.latencyQuantileNanos(0.5) / 1e3)),
                        format("%.1f", median(variantRuns, run -> run.latencyQuantileNanos(0.99) / 1e3))));
            }
            System.out.println(tableRow(cells));
        }
        List<ServiceRun> without = runs.get(0);
        int agentPathVariant = indexOf(variants, AGENT_PATH);
        if (indexOf(variants, JAVA_NOOP) < 0) {
            System.out.println();
            System.out.println(agentPathLine(runs.get(agentPathVariant), without,
                    runs.get(indexOf(variants, NATIVE_NOOP))));
            return;
        }
        List<ServiceRun> with = runs.get(variants.size() - 1);
        double startupRatio = median(with, run -> run.startupNanos / 1e6)
                / median(without, run -> run.startupNanos / 1e6);
        System.out.println();
        System.out.println("clock-agent / no agent, per round: startup "
                + ratios(with, without, run -> run.startupNanos) + (loaded ? "; throughput "
                + ratios(with, without, run -> run.requestsPerSecond) + "; median latency "
                + ratios(with, without, run -> run.latencyQuantileNanos(0.5)) + "; p99 latency "
                + ratios(with, without, run -> run.latencyQuantileNanos(0.99)) : ""));
        System.out.println("budget: startup with clock-agent at most " + format("%.2f", BUDGET_STARTUP_RATIO)
                + "x the startup without (medians): " + format("%.3f", startupRatio) + "x: "
                + (startupRatio <= BUDGET_STARTUP_RATIO ? "met" : "MISSED"));
        System.out.println("clock-agent - do-nothing Java agent, per round: startup "
                + perRoundDifference(with, runs.get(1), BUDGET_OWN_SHARE_MILLIS));
        System.out.println("clock-agent - do-nothing Java agent opening java.lang (the floor from Java 24 on),"
                + " per round: startup " + perRoundDifference(with, runs.get(indexOf(variants, OPENING_NOOP)),
                BUDGET_OWN_SHARE_MILLIS));
        int bothNoops = indexOf(variants, BOTH_NOOPS);
        if (bothNoops >= 0) {
            System.out.println("clock-agent - do-nothing Java and native agents (the floor of a -javaagent whose hook"
                    + " sees every class file), per round: startup "
                    + perRoundDifference(with, runs.get(bothNoops), BUDGET_OWN_SHARE_MILLIS));
        }
        if (agentPathVariant >= 0) {
            System.out.println(agentPathLine(runs.get(agentPathVariant), without,
                    indexOf(variants, NATIVE_NOOP) < 0 ? null : runs.get(indexOf(variants, NATIVE_NOOP))));
        }
    }

    /** The -agentpath line for a stack: the per-round ratios, then {@link #agentPathBudget(double, double, double)}. */
    private static String agentPathLine(List<ServiceRun> agentPath, List<ServiceRun> without,
            List<ServiceRun> nativeNoop) {
        String line = "clock-agent through -agentpath / no agent, per round: startup "
                + ratios(agentPath, without, run -> run.startupNanos);
        if (nativeNoop != null) {
            line += "; / do-nothing native agent: " + ratios(agentPath, nativeNoop, run -> run.startupNanos);
        }
        return line + "; budget: " + agentPathBudget(median(agentPath, run -> run.startupNanos),
                median(without, run -> run.startupNanos),
                nativeNoop == null ? Double.NaN : median(nativeNoop, run -> run.startupNanos));
    }

    /**
     * The -agentpath budget, for the stacks and the class-heavy program alike: at most
     * {@link #BUDGET_AGENT_PATH_RATIO} of no agent, or, where the do-nothing native agent itself measures above
     * {@link #NATIVE_NOOP_NOISY_RATIO} in the same run, within {@link #BUDGET_AGENT_PATH_TO_NATIVE_NOOP_RATIO} of it;
     * medians, all three in one unit. The verdict, {@code met} or {@code MISSED}, ends the text.
     *
     * @param nativeNoopMedian the do-nothing native agent's median, or NaN where it was left out
     */
    static String agentPathBudget(double agentPathMedian, double withoutMedian, double nativeNoopMedian) {
        double ratio = agentPathMedian / withoutMedian;
        boolean met = ratio <= BUDGET_AGENT_PATH_RATIO;
        String budget = "at most " + format("%.2f", BUDGET_AGENT_PATH_RATIO) + "x without an agent (medians): "
                + format("%.3f", ratio) + "x";
        double noopRatio = nativeNoopMedian / withoutMedian;
        if (!met && noopRatio > NATIVE_NOOP_NOISY_RATIO) {
            double toNoop = agentPathMedian / nativeNoopMedian;
            met = toNoop <= BUDGET_AGENT_PATH_TO_NATIVE_NOOP_RATIO;
            budget += ", the do-nothing native agent itself " + format("%.3f", noopRatio) + "x, so at most "
                    + format("%.2f", BUDGET_AGENT_PATH_TO_NATIVE_NOOP_RATIO) + "x of it: " + format("%.3f", toNoop)
                    + "x";
        }
        return budget + ": " + (met ? "met" : "MISSED");
    }

    private static int indexOf(List<Variant> variants, String name) {
        for (int variant = 0; variant < variants.size(); variant++) {
            if (variants.get(variant).name().equals(name)) {
                return variant;
            }
        }
        return -1;
    }

    /** The median of the per-round differences of the starts, in ms, with quartiles, range and the budget's verdict. */
    private static String perRoundDifference(List<ServiceRun> with, List<ServiceRun> base, double budgetMillis) {
        List<Double> differences = new ArrayList<>();
        for (int i = 0; i < with.size(); i++) {
            differences.add((with.get(i).startupNanos - base.get(i).startupNanos) / 1e6);
        }
        Collections.sort(differences);
        double median = Samples.median(differences);
        return format("%+.1f", median) + " ms (quartiles " + format("%+.1f", quartile(differences, 1)) + " to "
                + format("%+.1f", quartile(differences, 3)) + ", range " + format("%+.1f", differences.get(0))
                + " to " + format("%+.1f", differences.get(differences.size() - 1)) + "); budget: at most "
                + format("%+.1f", budgetMillis) + " ms: " + (median <= budgetMillis ? "met" : "MISSED");
    }

    /** The lower (1) or upper (3) quartile of sorted values, by the nearest rank. */
    private static double quartile(List<Double> sorted, int which) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(which * sorted.size() / 4.0) - 1));
    }

    /** What one run measured, as a number. */
    private interface Measure {
        double of(ServiceRun run);
    }

    private static double median(List<ServiceRun> runs, Measure measure) {
        List<Double> values = new ArrayList<>();
        for (ServiceRun run : runs) {
            values.add(measure.of(run));
        }
        return Samples.median(values);
    }

    /**
     * {@code median M (95 % interval A-B, range C-D)} of the per-round ratios {@code with[i] / without[i]}; the interval
     * where there are rounds enough for one.
     */
    private static String ratios(List<ServiceRun> with, List<ServiceRun> without, Measure measure) {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < with.size(); i++) {
            ratios.add(measure.of(with.get(i)) / measure.of(without.get(i)));
        }
        return ratioSummary(ratios);
    }

    /**
     * {@code median M (95 % interval A-B, range C-D)} of per-round ratios, for every runner that compares starts; the
     * interval where there are rounds enough for one.
     */
    static String ratioSummary(List<Double> ratios) {
        String interval = "";
        if (ratios.size() >= 6) {
            double[] bounds = Samples.medianInterval95(ratios);
            interval = "95 % interval of the median " + format("%.3f", bounds[0]) + "-" + format("%.3f", bounds[1])
                    + ", ";
        }
        return format("%.3f", Samples.median(ratios)) + "x (" + interval + "range "
                + format("%.3f", Collections.min(ratios)) + "-" + format("%.3f", Collections.max(ratios)) + ")";
    }

    private static String tableRow(List<String> cells) {
        return "| " + String.join(" | ", cells) + " |";
    }

    private static String format(String pattern, double value) {
        return String.format(Locale.ROOT, pattern, value);
    }
}
