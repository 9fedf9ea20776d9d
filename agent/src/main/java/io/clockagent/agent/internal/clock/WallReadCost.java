package io.clockagent.agent.internal.clock;

/**
 * Whether a read of the wall clock is slow on this host: measured once, on the ticker thread, before its first tick.
 *
 * <p>Where the kernel's clocksource has a vDSO fast path (tsc, the arm architected timer), a read is answered in user
 * space in 20-40 ns, and the ticker spins on it for the last microseconds before each boundary. Where it has none
 * (hpet, acpi_pm, Xen, a filtered {@code clock_gettime}), every read is a system call, and an hpet read is serialized
 * across the machine: a spin of dozens of reads a tick is then the ticker's main cost, and it slows every other
 * process's reads of the clock. There the ticker reads the wall clock once a tick and waits on the monotonic clock.
 *
 * <p>The ticker measures before its code is compiled, where a read costs mostly the interpreter's call into native
 * code, and that cost alone varies with the host and its load (an interpreted {@code Clock.millis()} on a vDSO clock
 * took 60-70 ns on one host and 115-175 ns on another), so no fixed bound on the read tells it from a system call.
 * Instead each read is timed beside another native call of the same shape that reads no clock
 * ({@link System#identityHashCode}), in alternating batches. Measured on JDK 11, 17, 21 and 25 (tsc): a vDSO read
 * 0.8-1.7 times that call and at most 30 ns above it; a system call (under the tests' {@code slowclock.c}) 3.3-8.3
 * times and at least 190 ns above.
 */
final class WallReadCost {

    /**
     * A slow read reaches both bounds. The ratio alone would misjudge a compiled measurement (a 30 ns read beside a
     * 3 ns call); the margin alone a host that runs everything slower.
     */
    static final double SLOW_READ_RATIO = 2.0;
    static final double SLOW_READ_MARGIN_NANOS = 100.0;
    /** 128 reads of the clock: at most a few hundred microseconds on a slow clock, once. */
    private static final int CALLS_PER_BATCH = 16;
    private static final int BATCHES = 8;

    /** Where the measurement's sums go, so that they cannot be optimised away. */
    private static volatile long sink;

    private WallReadCost() {
    }

    static boolean isSlow() {
        long fastestReadBatchNanos = Long.MAX_VALUE;
        long fastestCallBatchNanos = Long.MAX_VALUE;
        long sum = 0;
        Object hashed = new Object();
        // The fastest batch of each: preemption can only make a batch slower.
        for (int batch = 0; batch < BATCHES; batch++) {
            long startNanos = System.nanoTime();
            for (int i = 0; i < CALLS_PER_BATCH; i++) {
                sum += System.currentTimeMillis();
            }
            long middleNanos = System.nanoTime();
            for (int i = 0; i < CALLS_PER_BATCH; i++) {
                sum += System.identityHashCode(hashed);
            }
            long endNanos = System.nanoTime();
            fastestReadBatchNanos = Math.min(fastestReadBatchNanos, middleNanos - startNanos);
            fastestCallBatchNanos = Math.min(fastestCallBatchNanos, endNanos - middleNanos);
        }
        sink = sum;
        return isSlow(fastestReadBatchNanos / (double) CALLS_PER_BATCH,
                fastestCallBatchNanos / (double) CALLS_PER_BATCH);
    }

    static boolean isSlow(double readNanos, double nativeCallNanos) {
        return readNanos >= SLOW_READ_RATIO * nativeCallNanos && readNanos - nativeCallNanos >= SLOW_READ_MARGIN_NANOS;
    }
}
