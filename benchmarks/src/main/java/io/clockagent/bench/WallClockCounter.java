package io.clockagent.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The counter library ({@code src/main/c/wallclock_counter.c}) as one service run uses it: the environment that
 * preloads it, and the snapshots and samples it writes under a path of this run. Used by the runner thread only.
 */
final class WallClockCounter {

    /** The poller looks for a request every 5 ms; a loaded machine may take far longer to schedule it. */
    private static final long SNAPSHOT_PATIENCE_SECONDS = 30;

    private final Path library;
    private final Path counts;

    WallClockCounter(Path library, Path runDirectory) {
        this.library = library;
        this.counts = runDirectory.resolve("counts");
    }

    /** What the service's environment needs: the preload, where counts go, and the threads never sampled. */
    Map<String, String> environment() {
        List<String> unsampled = new ArrayList<>(ThreadKind.JVM_NAME_PREFIXES);
        unsampled.add(ThreadKind.TICKER_NAME);
        return Map.of("LD_PRELOAD", library.toString(), "WALLCLOCK_COUNTS", counts.toString(),
                "WALLCLOCK_SAMPLE_SKIP", String.join(",", unsampled));
    }

    /** Each thread's reads over the whole run, as the library wrote them when the process exited. */
    List<ThreadReads> atExit() throws IOException {
        List<ThreadReads> threads = new ArrayList<>();
        for (String line : Files.readAllLines(counts.resolveSibling("counts.exit"), StandardCharsets.UTF_8)) {
            threads.add(ThreadReads.parse(line));
        }
        return threads;
    }

    /** Each thread's reads so far, in the order the threads first read. */
    List<ThreadReads> snapshot(String name) throws IOException, InterruptedException {
        return request(name, name);
    }

    /**
     * Takes a snapshot, then samples one in {@code readsPerSample} reads of the sampled threads from now on, or stops
     * sampling where it is 0.
     */
    List<ThreadReads> snapshotAndSample(String name, long readsPerSample) throws IOException, InterruptedException {
        return request(name, name + " sample-every=" + readsPerSample);
    }

    /** The kernel ids of the sampled threads, one per sample, in the order of the thread dumps they asked for. */
    List<Integer> sampledThreads() throws IOException {
        Path samples = counts.resolveSibling("counts.samples");
        List<Integer> tids = new ArrayList<>();
        if (Files.exists(samples)) {
            for (String line : Files.readAllLines(samples, StandardCharsets.US_ASCII)) {
                tids.add(Integer.parseInt(line.trim()));
            }
        }
        return tids;
    }

    private List<ThreadReads> request(String name, String request) throws IOException, InterruptedException {
        Path snapshot = counts.resolveSibling("counts." + name);
        Path pending = counts.resolveSibling("counts.request");
        // Written aside and moved in whole: the poller may look between the creation of a file and its first byte.
        Path written = Files.writeString(counts.resolveSibling("counts.request.partial"), request,
                StandardCharsets.US_ASCII);
        Files.move(written, pending, StandardCopyOption.ATOMIC_MOVE);
        long deadlineNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(SNAPSHOT_PATIENCE_SECONDS);
        while (Files.exists(pending) || !Files.exists(snapshot)) {
            if (System.nanoTime() - deadlineNanos > 0) {
                throw new IllegalStateException("the counter library did not answer " + pending
                        + "; is it preloaded?");
            }
            Thread.sleep(2);
        }
        List<ThreadReads> threads = new ArrayList<>();
        for (String line : Files.readAllLines(snapshot, StandardCharsets.UTF_8)) {
            threads.add(ThreadReads.parse(line));
        }
        return threads;
    }
}
