package io.clockagent.agent.internal.clock;

import java.time.Clock;

/**
 * Whether a read of the ticker's wall clock is slow on this host: measured once, on the ticker thread, before its
 * first tick.
 *
 * <p>Where the kernel's clocksource has a vDSO fast path (tsc, the arm architected timer), a read is answered in user
 * space in 20-40 ns, and the ticker spins on it for the last microseconds before each boundary. Where it has none
 * (hpet, acpi_pm, Xen, a filtered {@code clock_gettime}), every read is a system call, and an hpet read is serialized
 * across the machine: a spin of dozens of reads a tick is then the ticker's main cost, and it slows every other
 * process's reads of the clock. There the ticker reads the wall clock once a tick and waits on the monotonic clock.
 */
final class WallReadCost {

    /**
     * Between the two kinds, with room on both sides: a vDSO read took 60-70 ns here through {@code Clock.millis()}
     * while still interpreted (which is what the ticker measures, before its code is compiled), and a system call
     * about 200 ns (under {@code slowclock.c}, JDK 17), an hpet read on real hardware 0.5-2 us.
     */
    static final long SLOW_READ_NANOS = 150L;
    /** 128 reads: at most a few tens of microseconds on a slow clock, once. */
    private static final int READS_PER_BATCH = 16;
    private static final int BATCHES = 8;

    /** Where the measurement's sums go, so that they cannot be optimised away. */
    private static volatile long sink;

    private WallReadCost() {
    }

    static boolean isSlow(Clock wallClock) {
        return nanos(wallClock) >= SLOW_READ_NANOS;
    }

    /**
     * The fastest of a few short batches of reads, per read; preemption can only make a batch slower. Through
     * {@code millis()}: the same {@code clock_gettime(CLOCK_REALTIME)} as {@code instant()}, without the arithmetic
     * that makes an interpreted {@code instant()} cost some 450 ns even on a fast clock.
     */
    static long nanos(Clock wallClock) {
        long fastestBatchNanos = Long.MAX_VALUE;
        long sum = 0;
        for (int batch = 0; batch < BATCHES; batch++) {
            long startNanos = System.nanoTime();
            for (int i = 0; i < READS_PER_BATCH; i++) {
                sum += wallClock.millis();
            }
            fastestBatchNanos = Math.min(fastestBatchNanos, System.nanoTime() - startNanos);
        }
        sink = sum;
        return fastestBatchNanos / READS_PER_BATCH;
    }
}
