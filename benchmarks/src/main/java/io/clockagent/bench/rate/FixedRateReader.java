package io.clockagent.bench.rate;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Reads {@code System.currentTimeMillis()} at a fixed average rate, spread over threads that each read a batch every
 * millisecond and park in between, as a service reads the clock while it serves, or in bursts: batches in the first
 * milliseconds of each period and nothing in the rest, as batch work and timers that fire together read it; then
 * prints the CPU time the whole process spent per second of a timed window after a warm-up. Linux only. The forked
 * side of {@code ReadRateComparison}, run with and without the agent (including this package).
 *
 * <p>Arguments: reads per second (0: the threads only park), threads, warm-up seconds, timed seconds, and optionally
 * the burst's and the period's length in milliseconds (default 1 and 1: steady). Prints
 * {@code cpu-per-second NANOS reads READS}, where READS counts the reads the threads made in the timed window.
 */
public final class FixedRateReader {

    private static final long BATCH_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private static volatile boolean timing;
    private static volatile boolean running = true;

    private FixedRateReader() {
    }

    public static void main(String[] args) throws InterruptedException, IOException {
        long readsPerSecond = Long.parseLong(args[0]);
        int threads = Integer.parseInt(args[1]);
        long warmupNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(args[2]));
        long timedNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(args[3]));
        int burstMillis = args.length > 4 ? Integer.parseInt(args[4]) : 1;
        long periodMillis = args.length > 5 ? Long.parseLong(args[5]) : 1;
        long batchesPerSecond = burstMillis * 1000 / periodMillis;
        long readsPerBatch = readsPerSecond / threads / batchesPerSecond;
        if (burstMillis < 1 || burstMillis > periodMillis || 1000 % periodMillis != 0
                || readsPerBatch * threads * batchesPerSecond != readsPerSecond) {
            throw new IllegalArgumentException("bursts of " + burstMillis + " ms every " + periodMillis + " ms at "
                    + readsPerSecond + " reads per second: the period must divide a second, hold the burst, and the"
                    + " rate be a multiple of " + threads * batchesPerSecond);
        }
        Reader[] readers = new Reader[threads];
        for (int i = 0; i < threads; i++) {
            readers[i] = new Reader(readsPerBatch, burstMillis, TimeUnit.MILLISECONDS.toNanos(periodMillis));
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

    /**
     * One reading thread: a batch of reads at each of the first {@code burstBatches} millisecond boundaries of every
     * period of its own schedule.
     */
    private static final class Reader extends Thread {
        private final long readsPerBatch;
        private final int burstBatches;
        private final long periodNanos;
        long timedReads;
        /** A field, so that the reads it sums cannot be dropped. */
        long sum;

        Reader(long readsPerBatch, int burstBatches, long periodNanos) {
            super("reader");
            this.readsPerBatch = readsPerBatch;
            this.burstBatches = burstBatches;
            this.periodNanos = periodNanos;
        }

        @Override
        public void run() {
            long periodStartNanos = System.nanoTime();
            while (running) {
                for (int batch = 0; batch < burstBatches && running; batch++) {
                    parkUntil(periodStartNanos + batch * BATCH_NANOS);
                    for (long i = 0; i < readsPerBatch; i++) {
                        sum += System.currentTimeMillis();
                    }
                    if (timing) {
                        timedReads += readsPerBatch;
                    }
                }
                periodStartNanos += periodNanos;
                parkUntil(periodStartNanos);
            }
        }

        private static void parkUntil(long deadlineNanos) {
            long waitNanos = deadlineNanos - System.nanoTime();
            if (waitNanos > 0) {
                LockSupport.parkNanos(waitNanos);
            }
        }
    }
}
