package io.clockagent.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * One timed run of a stack service in a forked JVM: the time from launch to its {@code listening PORT} line, then
 * closed-loop load from a few client threads, each sending its next request when the last is answered, untimed for a
 * warm-up and then timed, unless no timed load is asked for; then the end of its stdin stops it, and it must exit
 * with status 0.
 */
final class ServiceRun {

    /** Far above the seconds a start takes; only a hung service reaches it. */
    private static final long START_PATIENCE_SECONDS = 120;
    /** Variables that change every JVM's options; only a run that sets one on purpose has it. */
    private static final List<String> JVM_OPTION_VARIABLES = List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS",
            "_JAVA_OPTIONS");

    final long startupNanos;
    /** NaN for a run without load. */
    final double requestsPerSecond;
    /** Every timed request's latency, sorted; none for a run without load. */
    final long[] latencyNanos;

    private ServiceRun(long startupNanos, double requestsPerSecond, long[] latencyNanos) {
        this.startupNanos = startupNanos;
        this.requestsPerSecond = requestsPerSecond;
        this.latencyNanos = latencyNanos;
    }

    /**
     * @param environment variables set for the service, over the runner's own less those that change every JVM's
     *     options
     */
    static ServiceRun run(ServiceStack stack, List<String> command, Map<String, String> environment, Path runDirectory,
            int clients, long warmupNanos, long timedNanos) throws Exception {
        Files.createDirectories(runDirectory);
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(runDirectory.resolve("stderr.txt").toFile());
        JVM_OPTION_VARIABLES.forEach(builder.environment()::remove);
        builder.environment().putAll(environment);
        long launchedNanos = System.nanoTime();
        Process service = builder.start();
        try {
            BufferedReader stdout = new BufferedReader(new InputStreamReader(service.getInputStream(),
                    StandardCharsets.UTF_8));
            int port = awaitPort(stdout, command);
            long startupNanos = System.nanoTime() - launchedNanos;
            drainInBackground(stdout);
            long[] all = {};
            double perSecond = Double.NaN;
            if (timedNanos > 0) {
                try (StackClient setup = stack.connect(port)) {
                    for (String request : stack.setup()) {
                        setup.request(request);
                    }
                }
                load(stack, port, clients, warmupNanos);
                List<long[]> latencies = load(stack, port, clients, timedNanos);
                all = latencies.stream().flatMapToLong(Arrays::stream).sorted().toArray();
                perSecond = all.length / (timedNanos / 1e9);
            }
            // The end of its stdin stops the service.
            service.getOutputStream().close();
            if (!service.waitFor(START_PATIENCE_SECONDS, TimeUnit.SECONDS) || service.exitValue() != 0) {
                throw new IllegalStateException(stack.module() + " did not stop cleanly; stderr in " + runDirectory);
            }
            return new ServiceRun(startupNanos, perSecond, all);
        } finally {
            service.destroyForcibly();
        }
    }

    /** The latency at quantile {@code q} (0.5 for the median), in nanoseconds. */
    long latencyQuantileNanos(double q) {
        return latencyNanos[(int) Math.min(latencyNanos.length - 1, Math.floor(q * latencyNanos.length))];
    }

    private static int awaitPort(BufferedReader stdout, List<String> command) throws IOException {
        for (String line = stdout.readLine(); line != null; line = stdout.readLine()) {
            if (line.startsWith("listening ")) {
                return Integer.parseInt(line.substring("listening ".length()).trim());
            }
        }
        throw new IllegalStateException("ended before listening: " + String.join(" ", command));
    }

    private static void drainInBackground(BufferedReader stdout) {
        Thread drain = new Thread(() -> {
            try {
                while (stdout.readLine() != null) {
                    // The service's own log lines; nobody reads them here.
                }
            } catch (IOException ended) {
                // The service is gone.
            }
        }, "service-stdout");
        drain.setDaemon(true);
        drain.start();
    }

    /** Each client's latencies, in nanoseconds, for the requests answered within the duration. */
    private static List<long[]> load(ServiceStack stack, int port, int clients, long durationNanos) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(clients);
        try {
            List<Future<long[]>> running = new ArrayList<>();
            long endNanos = System.nanoTime() + durationNanos;
            for (int c = 0; c < clients; c++) {
                running.add(threads.submit(() -> {
                    long[] latencies = new long[1 << 16];
                    int count = 0;
                    try (StackClient client = stack.connect(port)) {
                        for (int i = 0; System.nanoTime() - endNanos < 0; i++) {
                            long sentNanos = System.nanoTime();
                            client.request(stack.request(i));
                            if (count == latencies.length) {
                                latencies = Arrays.copyOf(latencies, count * 2);
                            }
                            latencies[count++] = System.nanoTime() - sentNanos;
                        }
                    }
                    return Arrays.copyOf(latencies, count);
                }));
            }
            List<long[]> latencies = new ArrayList<>();
            for (Future<long[]> client : running) {
                latencies.add(client.get());
            }
            return latencies;
        } finally {
            threads.shutdownNow();
        }
    }
}
