package io.clockagent.agent.internal.clock;

/**
 * What a read of the wall clock costs on this host, measured on the ticker thread before its first tick: whether a
 * read is slow, and, for {@code cache=auto}, what one direct {@code System.currentTimeMillis()} costs. Each takes the
 * fastest of a few short batches, which preemption cannot make faster, against a loop of the same shape without the
 * read. The agent's own code is never rewritten, so these reads are direct calls.
 *
 * <p>Where the kernel's clocksource has a vDSO fast path (tsc, the arm architected timer), a read is answered in user
 * space in tens of nanoseconds, and the ticker spins on it for the last microseconds before each boundary. Where it has
 * none (hpet, acpi_pm, Xen, a filtered {@code clock_gettime}), every read is a system call, and an hpet read is
 * serialized across the machine: a spin of dozens of reads a tick is then the ticker's main cost, and it slows every
 * other process's reads of the clock. There the ticker reads the wall clock once a tick and waits on the monotonic
 * clock.
 *
 * <p>The ticker measures before its code is compiled, where a read costs mostly the interpreter's call into native
 * code, and that cost alone varies with the host and its load, so no fixed bound on the read tells it from a system
 * call. Instead each read is timed beside another native call of the same shape that reads no clock
 * ({@link System#identityHashCode}), in alternating batches: a vDSO read costs about as much as that call, a system
 * call (as under the tests' {@code slowclock.c}) several times as much and hundreds of nanoseconds more.
 */
final class WallReadCost {

    /**
     * A slow read reaches both bounds. The ratio alone would misjudge a compiled measurement (a read of a few tens of
     * nanoseconds beside a call of a few); the margin alone a host that runs everything slower.
     */
    static final double SLOW_READ_RATIO = 2.0;
    static final double SLOW_READ_MARGIN_NANOS = 100.0;
    /** 128 reads of the clock: at most a few hundred microseconds on a slow clock, once. */
    private static final int CALLS_PER_BATCH = 16;
    private static final int BATCHES = 8;
    /** Reads per batch, and batches, of the direct call's measurement: 100,000 calls, once. */
    private static final int DIRECT_CALLS_PER_BATCH = 5_000;
    private static final int DIRECT_CALL_BATCHES = 20;

    /** Where the measurements' sums go, so that they cannot be optimised away. */
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

    /**
     * What one direct {@code System.currentTimeMillis()} costs: the fastest batch of calls less the same loop without
     * the call.
     */
    static double directCallNanos() {
        long fastestWithCallNanos = Long.MAX_VALUE;
        long fastestEmptyNanos = Long.MAX_VALUE;
        long sum = 0;
        for (int batch = 0; batch < DIRECT_CALL_BATCHES; batch++) {
            long startNanos = System.nanoTime();
            for (int i = 0; i < DIRECT_CALLS_PER_BATCH; i++) {
                sum += System.currentTimeMillis();
            }
            long middleNanos = System.nanoTime();
            for (int i = 0; i < DIRECT_CALLS_PER_BATCH; i++) {
                sum += i;
            }
            long endNanos = System.nanoTime();
            fastestWithCallNanos = Math.min(fastestWithCallNanos, middleNanos - startNanos);
            fastestEmptyNanos = Math.min(fastestEmptyNanos, endNanos - middleNanos);
        }
        sink = sum;
        return Math.max(1L, fastestWithCallNanos - fastestEmptyNanos) / (double) DIRECT_CALLS_PER_BATCH;
    }
}
