package io.clockagent.bench;

import io.clockagent.bench.bursty.BurstCatchProbe;
import io.clockagent.bench.bursty.rewritten.RewrittenLoop;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * How soon the defaults ({@code cache=auto}) cache a burst, through {@code -javaagent} and {@code -agentpath}, of this
 * build and, with {@code --against}, of another agent jar: each run starts one {@link BurstCatchProbe} JVM a variant,
 * in an order that rotates from run to run, all reading slowly for the same random time (3-5 s, so that the burst
 * falls anywhere in the agent's periodic looks) before the burst. Prints each variant's median time from the burst's
 * start to caching over the runs, with the range, and whether this build's medians are no later than the other's.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.clockagent.bench.BurstCatchComparison [--java PATH] [--runs N]
 * [--against JAR]}.
 */
public final class BurstCatchComparison {

    static final long MIN_SLOW_MILLIS = 3_000;
    static final long SLOW_SPREAD_MILLIS = 2_000;

    private final JdkUnderTest jdk;
    private final BenchmarkFiles files;

    private BurstCatchComparison(JdkUnderTest jdk, BenchmarkFiles files) {
        this.jdk = jdk;
        this.files = files;
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        int runs = 10;
        Path against = null;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--java" -> java = Path.of(RunnerArguments.required(args[i], value));
                case "--runs" -> runs = Integer.parseInt(RunnerArguments.required(args[i], value));
                case "--against" -> against = Path.of(RunnerArguments.required(args[i], value));
                default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "'; valid: --java PATH,"
                        + " --runs N, --against JAR");
            }
            i++;
        }
        BenchmarkFiles files = BenchmarkFiles.locate();
        new BurstCatchComparison(JdkUnderTest.of(java), files).run(runs, against);
    }

    private void run(int runs, Path againstJar) throws IOException, InterruptedException {
        List<Variant> variants = new ArrayList<>();
        variants.add(new Variant("this build, `-javaagent`", files.agentJar(), null));
        variants.add(new Variant("this build, `-agentpath`", files.agentJar(), files.agentPathLibrary()));
        if (againstJar != null) {
            variants.add(new Variant(againstJar.getFileName() + ", `-javaagent`", againstJar, null));
            variants.add(new Variant(againstJar.getFileName() + ", `-agentpath`", againstJar,
                    files.agentPathLibrary(againstJar, "burst-against")));
        }
        System.out.println("JDK " + jdk + ", " + Machine.hostFacts() + "; " + runs + " runs, defaults; a reader at"
                + " about 2,000 reads a second for 3-5 s, then flat out on one thread; before: "
                + Machine.loadAverage());
        Map<Variant, List<Double>> caught = new LinkedHashMap<>();
        variants.forEach(variant -> caught.put(variant, new ArrayList<>()));
        Random random = new Random();
        for (int run = 0; run < runs; run++) {
            long slowMillis = MIN_SLOW_MILLIS + random.nextInt((int) SLOW_SPREAD_MILLIS);
            List<Variant> order = new ArrayList<>(variants);
            Collections.rotate(order, run);
            System.err.print("  run " + (run + 1) + " of " + runs + " (" + slowMillis + " ms slow):");
            for (Variant variant : order) {
                double millis = measure(variant, slowMillis);
                caught.get(variant).add(millis);
                System.err.print(" " + format("%.0f", millis));
            }
            System.err.println();
        }
        System.out.println("after: " + Machine.loadAverage());
        System.out.println();
        System.out.println("| agent | burst to caching, median ms | range ms | runs |");
        System.out.println("| --- | ---: | ---: | ---: |");
        for (Map.Entry<Variant, List<Double>> entry : caught.entrySet()) {
            List<Double> millis = entry.getValue();
            System.out.println("| " + entry.getKey().name + " | " + format("%.0f", Samples.median(millis)) + " | "
                    + format("%.0f", Collections.min(millis)) + " .. " + format("%.0f", Collections.max(millis))
                    + " | " + millis.size() + " |");
        }
        if (againstJar != null) {
            System.out.println();
            for (int entry = 0; entry < 2; entry++) {
                Variant mine = variants.get(entry);
                Variant theirs = variants.get(entry + 2);
                double mineMillis = Samples.median(caught.get(mine));
                double theirsMillis = Samples.median(caught.get(theirs));
                System.out.println("  " + mine.name + ": median " + format("%.0f", mineMillis) + " ms against "
                        + format("%.0f", theirsMillis) + " ms: " + (mineMillis <= theirsMillis ? "met" : "MISSED"));
            }
        }
    }

    /** One probe JVM: the milliseconds from the burst's start to caching. */
    private double measure(Variant variant, long slowMillis) throws IOException, InterruptedException {
        String options = "include=" + RewrittenLoop.class.getPackageName();
        List<String> command = List.of(jdk.java().toString(), variant.library == null
                ? "-javaagent:" + variant.jar + "=" + options : "-agentpath:" + variant.library + "=" + options,
                "-cp", files.benchmarkJar().toString(), BurstCatchProbe.class.getName(), "--slow-millis",
                Long.toString(slowMillis));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String result = output.lines().filter(line -> line.startsWith(BurstCatchProbe.RESULT_PREFIX)).findFirst()
                .orElse(null);
        if (process.waitFor() != 0 || result == null) {
            throw new IllegalStateException("exit status " + process.exitValue() + " or no result from " + command
                    + "\n" + output);
        }
        Map<String, String> values = FidelityComparison.parse(result.substring(BurstCatchProbe.RESULT_PREFIX.length()));
        if (Boolean.parseBoolean(values.get("cachingBeforeBurst"))) {
            throw new IllegalStateException("the agent cached before the burst, at about 2,000 reads a second: "
                    + command + "\n" + output);
        }
        double millis = Double.parseDouble(values.get("caughtMillis"));
        if (millis < 0) {
            throw new IllegalStateException("the agent did not cache within " + BurstCatchProbe.GIVE_UP_SECONDS
                    + " s of the burst: " + command + "\n" + output);
        }
        return millis;
    }

    private static String format(String pattern, double value) {
        return String.format(Locale.ROOT, pattern, value);
    }

    /** One agent under test: its jar, and its library for -agentpath, or null for -javaagent. */
    private record Variant(String name, Path jar, Path library) {
    }
}
