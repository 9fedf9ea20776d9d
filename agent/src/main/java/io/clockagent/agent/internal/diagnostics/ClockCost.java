package io.clockagent.agent.internal.diagnostics;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * Measures what reading a clock costs on this host, in nanoseconds of the calling thread's CPU time per call: the
 * median of short runs. Enough to tell a vDSO clock (tens of ns) from a device or system-call clock (hundreds); not
 * a benchmark. CPU time, not wall time, so that a busy host, where the thread waits for a core, does not pass for a
 * slow clock; the time a slow clock takes is spent on the CPU (a device read, a system call) and counts.
 */
final class ClockCost {

    private static final int RUNS = 7;
    private static final long RUN_NANOS = 20_000_000L;
    /** Enough reads that reading the thread's CPU time once per batch adds well under 1 % to a 1 ns read. */
    private static final int READS_PER_BATCH = 100_000;

    /**
     * Reads one clock many times. Each implementation has its own loop, so the call inside stays monomorphic and
     * the JIT can inline it, as it would at a real call site.
     */
    interface ClockReads {
        /** @return the sum of the reads, which keeps the JIT from dropping them */
        long readMany(int reads);
    }

    static final class DirectMillis implements ClockReads {
        @Override
        public long readMany(int reads) {
            long sum = 0L;
            for (int i = 0; i < reads; i++) {
                sum += System.currentTimeMillis();
            }
            return sum;
        }
    }

    static final class DirectNanos implements ClockReads {
        @Override
        public long readMany(int reads) {
            long sum = 0L;
            for (int i = 0; i < reads; i++) {
                sum += System.nanoTime();
            }
            return sum;
        }
    }

    private static volatile long sink;

    private ClockCost() {
    }

    static double directCallNanos() {
        return nanosPerCall(new DirectMillis());
    }

    /** The median over {@value #RUNS} runs of about 20 ms each. */
    static double nanosPerCall(ClockReads clock) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        double[] runs = new double[RUNS];
        for (int run = 0; run < RUNS; run++) {
            long calls = 0L;
            long sum = 0L;
            long start = threads.getCurrentThreadCpuTime();
            long elapsed;
            do {
                sum += clock.readMany(READS_PER_BATCH);
                calls += READS_PER_BATCH;
                elapsed = threads.getCurrentThreadCpuTime() - start;
            } while (elapsed < RUN_NANOS);
            sink = sum;
            runs[run] = (double) elapsed / calls;
        }
        Arrays.sort(runs);
        return runs[RUNS / 2];
    }
}
