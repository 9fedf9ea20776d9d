package io.clockagent.bench.rate;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Reads {@code System.currentTimeMillis()} at a fixed rate, spread over threads that each read a batch every
 * millisecond and park in between, as a service reads the clock while it serves; then prints the CPU time the whole
 * process spent per second of a timed window after a warm-up. Linux only. The forked side of {@code ReadRateComparison}, run with
 * and without the agent (including this package).
 *
 * <p>Arguments: reads per second (0: the threads only park), threads, warm-up seconds, timed seconds. Prints
 * {@code cpu-per-second NANOS reads READS}, where READS counts the reads the threads made in the timed window.
 */
public final class FixedRateReader {

    private static final long PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private static volatile boolean timing;
    private static volatile boolean running = true;

    private FixedRateReader() {
    }

    public static void main(String[] args) throws InterruptedException, IOException {
        long readsPerSecond = Long.parseLong(args[0]);
        int threads = Integer.parseInt(args[1]);
        long warmupNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(args[2]));
        long timedNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(args[3]));
        long readsPerPeriod = readsPerSecond / threads / TimeUnit.SECONDS.toMillis(1);
        if (readsPerSecond > 0 && readsPerPeriod * threads * 1000 != readsPerSecond) {
            throw new IllegalArgumentException("reads per second must be a multiple of " + threads * 1000);
        }
        Reader[] readers = new Reader[threads];
        for (int i = 0; i < threads; i++) {
            readers[i] = new Reader(readsPerPeriod);
            readers[i].start();
        }
        TimeUnit.NANOSECONDS.sleep(warmupNanos);
        long cpuBefore = processCpuNanos();
        long wallBefore = System.nanoTime();
        timing = true;
        TimeUnit.NANOSECONDS.sleep(timedNanos);
        timing = false;
        long cpuNanos = processCpuNanos() - cpuBefore;
        long wallNanos = System.nanoTime() - wallBefore;
        running = false;
        long reads = 0;
        for (Reader reader : readers) {
            reader.join();
            reads += reader.timedReads;
        }
        System.out.println("cpu-per-second " + Math.round(cpuNanos * 1e9 / wallNanos) + " reads " + reads);
    }

    /**
     * The CPU time of every thread of this process so far, the JVM's own included, in nanoseconds: the sum of Linux's
     * per-thread scheduler statistics, which count nanoseconds where the process totals count 10 ms ticks.
     */
    private static long processCpuNanos() throws IOException {
        long total = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                try {
                    String schedstat = Files.readString(task.resolve("schedstat"));
                    total += Long.parseLong(schedstat.substring(0, schedstat.indexOf(' ')));
                } catch (NoSuchFileException ended) {
                    // A thread that ended since the listing: its time is no longer anyone's.
                }
            }
        }
        return total;
    }

    /** One reading thread: a batch of reads at every millisecond boundary of its own schedule. */
    private static final class Reader extends Thread {
        private final long readsPerPeriod;
        long timedReads;
        /** A field, so that the reads it sums cannot be dropped. */
        long sum;

        Reader(long readsPerPeriod) {
            super("reader");
            this.readsPerPeriod = readsPerPeriod;
        }

        @Override
        public void run() {
            long nextNanos = System.nanoTime();
            while (running) {
                for (long i = 0; i < readsPerPeriod; i++) {
                    sum += System.currentTimeMillis();
                }
                if (timing) {
                    timedReads += readsPerPeriod;
                }
                nextNanos += PERIOD_NANOS;
                long waitNanos = nextNanos - System.nanoTime();
                if (waitNanos > 0) {
                    LockSupport.parkNanos(waitNanos);
                }
            }
        }
    }
}
