package io.clockagent.demo;

/** What a {@link VirtualThreadBurst} observed; immutable. */
final class BurstResult {

    private final int tasks;
    private final long tasksDone;
    private final long wallNanos;
    private final long[] lagCounts;
    private final long maxLagMillis;
    private final long staleReads;
    private final long tickerCpuNanos;
    private final boolean tickerAliveAfter;

    BurstResult(int tasks, long tasksDone, long wallNanos, long[] lagCounts, long maxLagMillis, long staleReads,
            long tickerCpuNanos, boolean tickerAliveAfter) {
        this.tasks = tasks;
        this.tasksDone = tasksDone;
        this.wallNanos = wallNanos;
        this.lagCounts = lagCounts.clone();
        this.maxLagMillis = maxLagMillis;
        this.staleReads = staleReads;
        this.tickerCpuNanos = tickerCpuNanos;
        this.tickerAliveAfter = tickerAliveAfter;
    }

    int tasks() {
        return tasks;
    }

    long tasksDone() {
        return tasksDone;
    }

    long wallNanos() {
        return wallNanos;
    }

    /** How far, in whole milliseconds, the clock the tasks read was behind the real clock, at the quantile. */
    long lagMillisAt(double quantile) {
        long total = 0;
        for (long count : lagCounts) {
            total += count;
        }
        if (total == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(quantile * total));
        long seen = 0;
        for (int lag = 0; lag < lagCounts.length; lag++) {
            seen += lagCounts[lag];
            if (seen >= rank) {
                return lag;
            }
        }
        return lagCounts.length - 1;
    }

    long maxLagMillis() {
        return maxLagMillis;
    }

    /** Tasks whose clock advanced less across their sleep than the sleep lasted, less one millisecond. */
    long staleReads() {
        return staleReads;
    }

    long tickerCpuNanos() {
        return tickerCpuNanos;
    }

    boolean tickerAliveAfter() {
        return tickerAliveAfter;
    }
}
