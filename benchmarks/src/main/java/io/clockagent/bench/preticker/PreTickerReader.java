package io.clockagent.bench.preticker;

import io.clockagent.bench.preticker.rewritten.RewrittenReads;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A flat-out reader of the clock from the start of {@code main}, for a window of seconds in which the agent's ticker
 * has not started ({@link StartKeeper}): the forked side of {@code PreTickerReadComparison}. Each thread reads through
 * {@link RewrittenReads} in chunks short enough to end close to the window's end, and counts its reads and the wall and
 * CPU time they took over the whole window and over its last second, which the JIT has compiled. The CPU time leaves
 * out the time the thread waited for a CPU, which on a machine shared with other work varies more than a read costs.
 *
 * <p>Arguments: threads, window in milliseconds. Prints one line a thread, {@code thread T window-reads N window-ns W
 * window-cpu-ns C last-second-reads N last-second-ns W last-second-cpu-ns C}, then {@code agent-threads NAMES}: the
 * agent's Java threads alive at the end, which must be none.
 */
public final class PreTickerReader {

    /** About 0.2 ms of reads: the window ends at most that late. */
    private static final int CHUNK_READS = 10_000;
    private static final long LAST_NANOS = 1_000_000_000L;

    /** Where the sums go, so that the reads cannot be dropped. */
    private static volatile long sink;

    private PreTickerReader() {
    }

    public static void main(String[] args) throws InterruptedException {
        int threads = Integer.parseInt(args[0]);
        long windowNanos = Long.parseLong(args[1]) * 1_000_000L;
        new StartKeeper().start();
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        CountDownLatch go = new CountDownLatch(1);
        String[] lines = new String[threads];
        List<Thread> readers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Thread reader = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException interrupted) {
                    throw new IllegalStateException(interrupted);
                }
                lines[thread] = "thread " + thread + " " + readFor(windowNanos, cpu);
            }, "reader-" + t);
            reader.start();
            readers.add(reader);
        }
        go.countDown();
        for (Thread reader : readers) {
            reader.join();
        }
        for (String line : lines) {
            System.out.println(line);
        }
        List<String> agentThreads = new ArrayList<>();
        for (Thread alive : Thread.getAllStackTraces().keySet()) {
            if (alive.getName().startsWith("clock-agent")) {
                agentThreads.add(alive.getName());
            }
        }
        System.out.println("agent-threads " + agentThreads);
    }

    private static String readFor(long windowNanos, ThreadMXBean cpu) {
        long startCpuNanos = cpu.getCurrentThreadCpuTime();
        long startNanos = System.nanoTime();
        long lastStartNanos = 0;
        long lastStartCpuNanos = 0;
        long lastStartReads = -1;
        long reads = 0;
        long sum = 0;
        long nowNanos;
        do {
            sum += RewrittenReads.read(CHUNK_READS);
            reads += CHUNK_READS;
            nowNanos = System.nanoTime();
            if (lastStartReads < 0 && nowNanos - startNanos >= windowNanos - LAST_NANOS) {
                lastStartNanos = nowNanos;
                lastStartCpuNanos = cpu.getCurrentThreadCpuTime();
                lastStartReads = reads;
            }
        } while (nowNanos - startNanos < windowNanos);
        long endCpuNanos = cpu.getCurrentThreadCpuTime();
        sink = sum;
        return "window-reads " + reads + " window-ns " + (nowNanos - startNanos) + " window-cpu-ns "
                + (endCpuNanos - startCpuNanos) + " last-second-reads " + (reads - lastStartReads) + " last-second-ns "
                + (nowNanos - lastStartNanos) + " last-second-cpu-ns " + (endCpuNanos - lastStartCpuNanos);
    }
}
