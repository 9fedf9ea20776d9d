package io.clockagent.demo;

import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * A burst of many virtual-thread tasks that read the clock on both sides of a short sleep, to show whether the
 * clock they read keeps up while the carrier threads are saturated. Run from one thread; needs JDK 21 or later.
 *
 * <p>Each task compares its own (rewritten, when the agent is on) {@code System.currentTimeMillis()} with the real
 * wall clock read through {@link Clock#systemUTC()}, which is JDK code and never rewritten.
 */
final class VirtualThreadBurst {

    /** Lags are counted per whole millisecond below this; anything longer lands in the last bucket. */
    static final int LAG_BUCKETS = 1_001;

    private static final Clock REAL_CLOCK = Clock.systemUTC();

    private VirtualThreadBurst() {
    }

    static BurstResult run(int tasks, int sleepMillis, long maxNanos, TickerThread ticker)
            throws InterruptedException {
        AtomicLongArray lagCounts = new AtomicLongArray(LAG_BUCKETS);
        LongAccumulator maxLagMillis = new LongAccumulator(Math::max, 0L);
        LongAdder staleReads = new LongAdder();
        LongAdder done = new LongAdder();
        long tickerCpuBefore = ticker == null ? TickerThread.NOT_MEASURED : ticker.cpuNanos();
        long startNanos = System.nanoTime();
        ExecutorService executor = RequestExecutors.newVirtualThreadPerTask();
        try {
            for (int i = 0; i < tasks; i++) {
                executor.execute(() -> {
                    long beforeMillis = System.currentTimeMillis();
                    try {
                        Thread.sleep(sleepMillis);
                    } catch (InterruptedException interrupted) {
                        return;
                    }
                    long afterMillis = System.currentTimeMillis();
                    long lagMillis = Math.max(0L, REAL_CLOCK.millis() - afterMillis);
                    lagCounts.incrementAndGet((int) Math.min(lagMillis, LAG_BUCKETS - 1));
                    maxLagMillis.accumulate(lagMillis);
                    // Asleep for sleepMillis, the clock must have moved at least that far, less one tick of caching.
                    if (afterMillis - beforeMillis < sleepMillis - 1) {
                        staleReads.increment();
                    }
                    done.increment();
                });
            }
        } finally {
            executor.shutdown();
        }
        boolean finished = executor.awaitTermination(maxNanos, TimeUnit.NANOSECONDS);
        if (!finished) {
            executor.shutdownNow();
        }
        long wallNanos = System.nanoTime() - startNanos;
        long tickerCpuAfter = ticker == null ? TickerThread.NOT_MEASURED : ticker.cpuNanos();
        long[] counts = new long[LAG_BUCKETS];
        for (int i = 0; i < LAG_BUCKETS; i++) {
            counts[i] = lagCounts.get(i);
        }
        return new BurstResult(tasks, done.sum(), wallNanos, counts, maxLagMillis.get(), staleReads.sum(),
                tickerCpuBefore < 0 || tickerCpuAfter < 0 ? TickerThread.NOT_MEASURED : tickerCpuAfter - tickerCpuBefore,
                ticker != null && ticker.alive());
    }
}
