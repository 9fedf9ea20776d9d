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
 * How many wall-clock reads each service still makes per request with clock-agent, and where they come from: each
 * service of {@link CoverageService#all()} runs without the agent and with {@code cache=always} (default
 * {@code include}, plus any {@code --agent-options}), once each, under the {@code LD_PRELOAD} counter of
 * {@code src/main/c/wallclock_counter.c}, which counts each thread's {@code clock_gettime(CLOCK_REALTIME)},
 * {@code gettimeofday} and {@code time} calls at the vDSO's usual cost. After a warm-up, a window of a fixed number of
 * requests from {@value #CLIENTS} closed-loop clients is counted between two snapshots; the application threads'
 * reads are reported per request, the ticker's and the JVM's own threads' per second. Then, where the application
 * threads read at all and sampling is on, a second JVM of the same command (see {@link CountedServiceRun#sample})
 * runs more load while one in N application-thread reads is held for a JVM thread dump, which names the Java code
 * that read (see {@link ReadSite}); the share of those samples made inside the JDK's own classes, times the counted
 * reads, estimates the reads the agent cannot reach. Single-threaded apart from the clients; one service at a time.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.clockagent.bench.ClockReadCoverage [--java PATH] [--warmup-seconds S]
 * [--requests N] [--sample-seconds S] [--agent-options OPTIONS] [--only SERVICE]}; SERVICE is one of the stacks or
 * {@value CoverageService#LOG4J}; {@code --sample-seconds 0} turns sampling off. The agent jar comes from
 * {@code -Dclockagent.jar}, as for the other runners.
 */
public final class ClockReadCoverage {

    private static final int CLIENTS = 2;
    /** How the agent's one line begins where it runs the service without itself. */
    private static final String AGENT_OFF = "clock-agent: off";
    /** The read sites printed per run; the rest are summed in one line. */
    private static final int SITES_SHOWN = 8;
    /** The application threads printed per run. */
    private static final int THREADS_SHOWN = 4;

    /** One way to start a service: a name for the table and the JVM options that make it. */
    private record Variant(String name, List<String> jvmOptions) {
    }

    private ClockReadCoverage() {
    }

    public static void main(String[] args) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        long warmupSeconds = 5;
        int requests = 20_000;
        long sampleSeconds = 10;
        String agentOptions = "";
        String only = null;
        for (int i = 0; i < args.length; i++) {
            String value = RunnerArguments.required(args[i], i + 1 < args.length ? args[i + 1] : null);
            switch (args[i]) {
                case "--java" -> java = Path.of(value);
                case "--warmup-seconds" -> warmupSeconds = Long.parseLong(value);
                case "--requests" -> requests = Integer.parseInt(value);
                case "--sample-seconds" -> sampleSeconds = Long.parseLong(value);
                case "--agent-options" -> agentOptions = value;
                case "--only" -> only = value;
                default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "'; valid: --java PATH,"
                        + " --warmup-seconds S, --requests N, --sample-seconds S, --agent-options OPTIONS,"
                        + " --only SERVICE");
            }
            i++;
        }
        List<CoverageService> services = new ArrayList<>();
        for (CoverageService service : CoverageService.all()) {
            if (only == null || only.equals(service.name())) {
                services.add(service);
            }
        }
        if (services.isEmpty()) {
            throw new IllegalArgumentException("unknown service '" + only + "' for --only; valid: "
                    + CoverageService.all().stream().map(CoverageService::name).collect(Collectors.joining(", ")));
        }
        JdkUnderTest jdk = JdkUnderTest.of(java);
        BenchmarkFiles files = BenchmarkFiles.locate();
        Path library = files.wallClockCounterLibrary();
        String agent = "-javaagent:" + files.agentJar() + "=cache=always"
                + (agentOptions.isEmpty() ? "" : "," + agentOptions);
        List<Variant> variants = List.of(new Variant("off", List.of()),
                new Variant("on: cache=always" + (agentOptions.isEmpty() ? "" : "," + agentOptions), List.of(agent)));
        Path work = Files.createTempDirectory("clock-read-coverage");
        System.out.println("JDK " + jdk + ", " + Machine.hostFacts() + "; " + CLIENTS + " clients, " + warmupSeconds
                + " s warm-up, " + requests + " requests counted"
                + (sampleSeconds > 0 ? ", then " + sampleSeconds + " s sampled" : "") + " per run; runs in " + work);
        List<String> rows = new ArrayList<>();
        for (CoverageService service : services) {
            if (jdk.featureVersion() < service.oldestJdk()) {
                System.out.println(service.name() + ": not run, it needs Java " + service.oldestJdk());
                continue;
            }
            for (Variant variant : variants) {
                Path runDirectory = work.resolve(service.name() + "-" + (variant.jvmOptions().isEmpty() ? "off" : "on"));
                List<String> command = new ArrayList<>(List.of(jdk.java().toString()));
                command.addAll(variant.jvmOptions());
                command.addAll(service.launch(files, runDirectory));
                System.err.println("  " + service.name() + ", agent " + variant.name() + " ...");
                CountedServiceRun run = CountedServiceRun.run(service, command, new WallClockCounter(library,
                        runDirectory), runDirectory, CLIENTS, TimeUnit.SECONDS.toNanos(warmupSeconds), requests);
                String stderr = Files.readString(runDirectory.resolve("stderr.txt"));
                if (stderr.contains(AGENT_OFF)) {
                    // A refused option leaves the service running without the agent: its counts are not the agent's.
                    throw new IllegalStateException(service.name() + ": the agent refused its options and ran off: "
                            + stderr.substring(stderr.indexOf(AGENT_OFF)).lines().findFirst().orElse(""));
                }
                ReadSamples samples = null;
                if (sampleSeconds > 0 && run.perRequest(ThreadKind.APPLICATION) > 0) {
                    Path sampleDirectory = runDirectory.resolveSibling(runDirectory.getFileName() + "-sampled");
                    samples = CountedServiceRun.sample(service, command, new WallClockCounter(library,
                            sampleDirectory), sampleDirectory, CLIENTS, TimeUnit.SECONDS.toNanos(warmupSeconds),
                            TimeUnit.SECONDS.toNanos(sampleSeconds), run.perSecond(ThreadKind.APPLICATION));
                }
                rows.add(row(service, variant, run, samples));
                printDetails(service, variant, run, samples);
            }
        }
        System.out.println();
        System.out.println("| service | agent | application threads' reads per request | of which in the JDK's own"
                + " classes (sampled) | samples | ticker reads per s | JVM threads' reads per s | requests per s |");
        System.out.println("| --- | --- |" + " ---: |".repeat(6));
        rows.forEach(System.out::println);
    }

    private static String row(CoverageService service, Variant variant, CountedServiceRun run,
            ReadSamples samples) {
        double perRequest = run.perRequest(ThreadKind.APPLICATION);
        String jdkShare = samples == null || samples.count() == 0 ? "-"
                : format("%.2f", perRequest * samples.jdkShare()) + " (" + format("%.0f", 100
                * samples.jdkShare()) + " %)";
        return "| " + String.join(" | ", service.name(), variant.name(), format("%.2f", perRequest), jdkShare,
                samples == null ? "0" : Integer.toString(samples.count()),
                format("%.0f", run.perSecond(ThreadKind.TICKER)), format("%.1f", run.perSecond(ThreadKind.JVM)),
                format("%.0f", run.requestsPerSecond())) + " |";
    }

    private static void printDetails(CoverageService service, Variant variant, CountedServiceRun run,
            ReadSamples samples) {
        System.out.println();
        System.out.println(service.name() + ", agent " + variant.name() + ": " + format("%.2f",
                run.perRequest(ThreadKind.APPLICATION)) + " application reads per request over " + run.windowRequests
                + " requests in " + format("%.1f", run.windowNanos / 1e9) + " s");
        System.out.println("  application threads: " + threads(run, ThreadKind.APPLICATION, THREADS_SHOWN));
        System.out.println("  JVM threads, per s: " + perSecond(run, ThreadKind.JVM));
        System.out.println("  ticker, per s: " + perSecond(run, ThreadKind.TICKER));
        if (samples == null) {
            return;
        }
        List<Map.Entry<ReadSite, Integer>> sites = samples.bySite();
        System.out.println("  read sites, " + samples.count() + " samples (share, via, reading frame[, for the"
                + " first frame outside the JDK]; * dumped at a safepoint poll after a JIT-compiled read):");
        int others = 0;
        for (int i = 0; i < sites.size(); i++) {
            ReadSite site = sites.get(i).getKey();
            int count = sites.get(i).getValue();
            if (i >= SITES_SHOWN) {
                others += count;
                continue;
            }
            System.out.println("    " + format("%3.0f", 100.0 * count / samples.count()) + " % " + site.via()
                    + (site.exact() ? "" : " *") + " <- " + site.reader()
                    + (site.inJdk() ? " for " + site.onBehalfOf() : ""));
        }
        if (others > 0) {
            System.out.println("    " + format("%3.0f", 100.0 * others / samples.count()) + " % "
                    + (sites.size() - SITES_SHOWN) + " other sites");
        }
    }

    private static String threads(CountedServiceRun run, ThreadKind kind, int shown) {
        List<ThreadReads> threads = run.window.threads(kind);
        String listed = threads.stream().limit(shown).map(thread -> thread.name() + " " + format("%.2f",
                thread.reads() / (double) run.windowRequests)).collect(Collectors.joining(", "));
        return threads.size() > shown ? listed + " and " + (threads.size() - shown) + " more" : listed;
    }

    private static String perSecond(CountedServiceRun run, ThreadKind kind) {
        double seconds = run.windowNanos / 1e9;
        String listed = run.window.threads(kind).stream().map(thread -> thread.name() + " " + format("%.1f",
                thread.reads() / seconds)).collect(Collectors.joining(", "));
        return listed.isEmpty() ? "none" : listed;
    }

    private static String format(String pattern, double value) {
        return String.format(Locale.ROOT, pattern, value);
    }
}
