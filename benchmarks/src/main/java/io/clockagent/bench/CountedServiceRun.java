package io.clockagent.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What one service does under the wall-clock read counter: closed-loop load from a few client threads, untimed for a
 * warm-up, then a window of a fixed number of requests between two snapshots of the counts; or, in a JVM of its own,
 * more load while the counter samples the application threads' reads. The end of its stdin then stops it, and it
 * must exit with status 0. Its stdout (the {@code listening PORT} line and the sampled thread dumps) and stderr are
 * kept in the run's directory. Immutable once run.
 */
final class CountedServiceRun {

    /** Far above the seconds a start takes; only a hung service reaches it. */
    private static final long START_PATIENCE_SECONDS = 120;
    /** Each sample holds its thread 100 ms; a few a second keep the load mostly running. */
    private static final double SAMPLES_PER_SECOND = 4;
    private static final String STDOUT = "stdout.txt";

    final int windowRequests;
    final long windowNanos;
    final WindowReads window;

    private CountedServiceRun(int windowRequests, long windowNanos, WindowReads window) {
        this.windowRequests = windowRequests;
        this.windowNanos = windowNanos;
        this.window = window;
    }

    /** Counts the reads of a window of {@code windowRequests} requests, after a warm-up. */
    static CountedServiceRun run(CoverageService service, List<String> command, WallClockCounter counter,
            Path runDirectory, int clients, long warmupNanos, int windowRequests) throws Exception {
        Process process = start(command, counter, runDirectory);
        try {
            int port = prepare(service, process, command, runDirectory, clients, warmupNanos);
            List<ThreadReads> before = counter.snapshot("before");
            long startNanos = System.nanoTime();
            load(service, port, clients, Long.MAX_VALUE, windowRequests);
            long windowNanos = System.nanoTime() - startNanos;
            WindowReads window = WindowReads.between(before, counter.snapshot("after"));
            stop(service, process, runDirectory);
            return new CountedServiceRun(windowRequests, windowNanos, window);
        } finally {
            process.destroyForcibly();
        }
    }

    /**
     * Samples the application threads' reads, about {@value #SAMPLES_PER_SECOND} a second at {@code readsPerSecond}, in
     * a JVM of its own: the command's, with {@code currentTimeMillis()}'s intrinsic turned off, so that every such read
     * is a call of its native method, inside which the thread dump finds the thread held, with the frame that called
     * it, rather than at a safepoint poll after the read, in whichever code JIT-compiled code reaches next. The window
     * run's counts never come from such a JVM.
     */
    static ReadSamples sample(CoverageService service, List<String> command, WallClockCounter counter,
            Path runDirectory, int clients, long warmupNanos, long samplingNanos, double readsPerSecond)
            throws Exception {
        List<String> sampled = new ArrayList<>(command);
        sampled.addAll(1, List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:DisableIntrinsic=_currentTimeMillis"));
        Process process = start(sampled, counter, runDirectory);
        try {
            int port = prepare(service, process, sampled, runDirectory, clients, warmupNanos);
            counter.snapshotAndSample("sampling", Math.max(1, Math.round(readsPerSecond / SAMPLES_PER_SECOND)));
            load(service, port, clients, samplingNanos, Integer.MAX_VALUE);
            counter.snapshotAndSample("sampled", 0);
            stop(service, process, runDirectory);
            return ReadSamples.read(runDirectory.resolve(STDOUT), counter.sampledThreads());
        } finally {
            process.destroyForcibly();
        }
    }

    private static Process start(List<String> command, WallClockCounter counter, Path runDirectory)
            throws IOException {
        Files.createDirectories(runDirectory);
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(runDirectory.resolve(STDOUT).toFile())
                .redirectError(runDirectory.resolve("stderr.txt").toFile());
        builder.environment().putAll(counter.environment());
        return builder.start();
    }

    /** Waits for the service to listen, sends its setup requests and the warm-up load; returns its port. */
    private static int prepare(CoverageService service, Process process, List<String> command, Path runDirectory,
            int clients, long warmupNanos) throws Exception {
        int port = awaitPort(process, runDirectory.resolve(STDOUT), command);
        try (StackClient setup = service.connect(port)) {
            for (String request : service.setup()) {
                setup.request(request);
            }
        }
        load(service, port, clients, warmupNanos, Integer.MAX_VALUE);
        return port;
    }

    private static void stop(CoverageService service, Process process, Path runDirectory) throws Exception {
        // The end of its stdin stops the service.
        process.getOutputStream().close();
        if (!process.waitFor(START_PATIENCE_SECONDS, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException(service.name() + " did not stop cleanly; see " + runDirectory);
        }
    }

    double perRequest(ThreadKind kind) {
        return window.reads(kind) / (double) windowRequests;
    }

    double perSecond(ThreadKind kind) {
        return window.reads(kind) / (windowNanos / 1e9);
    }

    double requestsPerSecond() {
        return windowRequests / (windowNanos / 1e9);
    }

    private static int awaitPort(Process process, Path stdout, List<String> command) throws Exception {
        long deadlineNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_PATIENCE_SECONDS);
        while (System.nanoTime() - deadlineNanos < 0) {
            for (String line : Files.readAllLines(stdout, StandardCharsets.UTF_8)) {
                if (line.startsWith("listening ")) {
                    return Integer.parseInt(line.substring("listening ".length()).trim());
                }
            }
            if (!process.isAlive()) {
                break;
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("did not print its listening line: " + String.join(" ", command));
    }

    /**
     * Closed-loop load until the duration has passed or the clients together have sent {@code requests}, whichever
     * comes first.
     */
    private static void load(CoverageService service, int port, int clients, long durationNanos, int requests)
            throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(clients);
        try {
            AtomicInteger sent = new AtomicInteger();
            long startNanos = System.nanoTime();
            List<Future<?>> running = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                running.add(threads.submit(() -> {
                    try (StackClient client = service.connect(port)) {
                        for (int i = sent.getAndIncrement(); i < requests
                                && System.nanoTime() - startNanos < durationNanos; i = sent.getAndIncrement()) {
                            client.request(service.request(i));
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> client : running) {
                client.get();
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
