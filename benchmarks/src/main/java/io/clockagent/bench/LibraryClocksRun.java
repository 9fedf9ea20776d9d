package io.clockagent.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One run of the library clocks service ({@code stacks/library-clocks-service}) in a forked JVM, as
 * {@link LibraryClocksComparison} measures it: after its {@code listening PORT} line, a warm-up at the modest load, then
 * the process's CPU time over a window at that load ({@code ids 1} paced at {@value #REQUESTS_PER_SECOND} requests a
 * second: as many ids a second from each generator, each request a Sentinel entry and a read of every library clock)
 * and over a window with no request at all; then its threads and counts. The end of its stdin then stops it, and it
 * must exit with status 0; a run whose generators refused an id or handed out one not above the one before is void.
 * Its stdout and stderr are kept in the run's directory. Immutable once run.
 */
final class LibraryClocksRun {

    static final long REQUESTS_PER_SECOND = 1_000;
    /** The libraries' clock threads, by name: mybatis-plus and Hutool both call theirs "System Clock". */
    static final List<String> LIBRARY_CLOCK_THREADS = List.of("System Clock", "sentinel-time-tick-thread",
            "time-millis-ticker-thread");
    /** Far above the seconds a start takes; only a hung service reaches it. */
    private static final long PATIENCE_SECONDS = 120;
    private static final long PACE_NANOS = TimeUnit.SECONDS.toNanos(1) / REQUESTS_PER_SECOND;
    private static final String STDOUT = "stdout.txt";
    private static final String STDERR = "stderr.txt";
    private static final Pattern CACHE_REPORT = Pattern.compile("report: cache=auto, (caching|direct) at the last"
            + " estimate .*, (\\d+) switches \\(\\d+ trial stops\\)");

    final double loadedCpuNanosPerSecond;
    final double idleCpuNanosPerSecond;
    /** The requests answered per second in the loaded window, which the pacing holds near the target. */
    final double requestsPerSecond;
    /** The live threads named as a library's clock thread, at the end of the idle window. */
    final int libraryClockThreads;
    /** What the agent's exit report said: {@code caching} or {@code direct}, with its switches; empty without it. */
    final String agentCache;

    private LibraryClocksRun(double loadedCpuNanosPerSecond, double idleCpuNanosPerSecond, double requestsPerSecond,
            int libraryClockThreads, String agentCache) {
        this.loadedCpuNanosPerSecond = loadedCpuNanosPerSecond;
        this.idleCpuNanosPerSecond = idleCpuNanosPerSecond;
        this.requestsPerSecond = requestsPerSecond;
        this.libraryClockThreads = libraryClockThreads;
        this.agentCache = agentCache;
    }

    /**
     * @param command the service's command line, the JDK's launcher first
     * @param environment variables for it besides this runner's own, such as {@code LD_PRELOAD}
     * @param agent whether the command starts clock-agent, whose banner must then open its stderr
     */
    static LibraryClocksRun run(List<String> command, Map<String, String> environment, boolean agent,
            Path runDirectory, long warmupNanos, long windowNanos) throws Exception {
        Files.createDirectories(runDirectory);
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(runDirectory.resolve(STDOUT).toFile())
                .redirectError(runDirectory.resolve(STDERR).toFile());
        builder.environment().putAll(environment);
        Process service = builder.start();
        try {
            int port = awaitPort(service, runDirectory, command);
            double loadedCpu;
            double idleCpu;
            double perSecond;
            String threads;
            String stats;
            try (StackClient client = StackClient.lines(port)) {
                paced(client, warmupNanos);
                long cpuBeforeNanos = ProcessCpu.nanos(service.pid());
                long beforeNanos = System.nanoTime();
                long requests = paced(client, windowNanos);
                long cpuLoadedNanos = ProcessCpu.nanos(service.pid());
                long loadedNanos = System.nanoTime();
                TimeUnit.NANOSECONDS.sleep(windowNanos);
                long cpuIdleNanos = ProcessCpu.nanos(service.pid());
                long idleNanos = System.nanoTime();
                loadedCpu = (cpuLoadedNanos - cpuBeforeNanos) * 1e9 / (loadedNanos - beforeNanos);
                idleCpu = (cpuIdleNanos - cpuLoadedNanos) * 1e9 / (idleNanos - loadedNanos);
                perSecond = requests * 1e9 / (loadedNanos - beforeNanos);
                threads = client.request("threads");
                stats = client.request("stats");
            }
            requireValidIds(stats, runDirectory);
            // The end of its stdin stops the service.
            service.getOutputStream().close();
            if (!service.waitFor(PATIENCE_SECONDS, TimeUnit.SECONDS) || service.exitValue() != 0) {
                throw new IllegalStateException("the service did not stop cleanly; see " + runDirectory);
            }
            String stderr = Files.readString(runDirectory.resolve(STDERR), StandardCharsets.UTF_8);
            if (agent && (!stderr.startsWith("clock-agent: ") || stderr.startsWith("clock-agent: off"))) {
                throw new IllegalStateException("clock-agent is not active in this run; see " + runDirectory);
            }
            return new LibraryClocksRun(loadedCpu, idleCpu, perSecond, libraryClockThreads(threads),
                    agentCache(stderr));
        } finally {
            service.destroyForcibly();
        }
    }

    /** {@code ids 1} every {@link #PACE_NANOS} for the duration; the requests answered. */
    private static long paced(StackClient client, long durationNanos) throws IOException, InterruptedException {
        long nextNanos = System.nanoTime();
        long endNanos = nextNanos + durationNanos;
        long requests = 0;
        while (nextNanos - endNanos < 0) {
            client.request("ids 1");
            requests++;
            nextNanos += PACE_NANOS;
            LockSupport.parkNanos(nextNanos - System.nanoTime());
        }
        return requests;
    }

    private static int libraryClockThreads(String threadsAnswer) {
        List<String> names = List.of(threadsAnswer.split("\t"));
        int count = 0;
        for (String name : LIBRARY_CLOCK_THREADS) {
            count += Collections.frequency(names, name);
        }
        return count;
    }

    /** Voids the run where a generator refused an id or handed out one not above the one before. */
    private static void requireValidIds(String statsAnswer, Path runDirectory) {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String pair : statsAnswer.substring("stats ".length()).split(" ")) {
            String[] nameAndValue = pair.split("=", 2);
            counts.put(nameAndValue[0], Long.parseLong(nameAndValue[1]));
        }
        for (Map.Entry<String, Long> count : counts.entrySet()) {
            if ((count.getKey().endsWith("NotIncreasing") || count.getKey().endsWith("ClockBackwards"))
                    && count.getValue() != 0) {
                throw new IllegalStateException("void run: " + statsAnswer + "; see " + runDirectory);
            }
        }
    }

    private static String agentCache(String stderr) {
        Matcher report = CACHE_REPORT.matcher(stderr);
        return report.find() ? report.group(1) + ", " + report.group(2) + " switches" : "";
    }

    private static int awaitPort(Process service, Path runDirectory, List<String> command) throws Exception {
        long deadlineNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
        while (System.nanoTime() - deadlineNanos < 0) {
            for (String line : Files.readAllLines(runDirectory.resolve(STDOUT), StandardCharsets.UTF_8)) {
                if (line.startsWith("listening ")) {
                    return Integer.parseInt(line.substring("listening ".length()).trim());
                }
            }
            if (!service.isAlive()) {
                break;
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("did not print its listening line: " + String.join(" ", command)
                + "; see " + runDirectory);
    }
}
