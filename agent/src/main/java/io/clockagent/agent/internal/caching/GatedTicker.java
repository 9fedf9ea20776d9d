package io.clockagent.agent.internal.caching;

/**
 * The ticker as its {@link CacheGate} drives it: taking the cached value from readers and giving it back, counting
 * the reads that go direct meanwhile, and waiting. Called on the ticker thread only, from inside the gate.
 */
public interface GatedTicker {

    /** Sends readers to the direct clock, never below the last value published where the clock is monotonic. */
    void withdraw();

    /** Reads the wall clock and publishes it. */
    void publish();

    /** Withdraws the value and parks until a reader finds it withdrawn: whether a read (not closing) woke it. */
    boolean idleUntilDemand();

    /**
     * Keeps the value published, and the ticking, but has each read counted as a direct read is, until the value is
     * withdrawn: for {@link DirectReadPrice}'s measure of what the counting alone costs the service. False, changing
     * nothing, where no value is published.
     */
    boolean countReads();

    /** About how many reads have taken the direct clock, or been counted while cached, so far. */
    long directReads();

    /** The CPU time the service's own threads have spent so far, or {@link ServiceCpuTime#UNKNOWN}. */
    long serviceCpuNanos();

    /**
     * The CPU time the JVM's compilers and VM threads had spent as of the last {@link #serviceCpuNanos()}, or unknown
     * as that is.
     */
    long fixedJvmCpuNanos();

    /** Parks until {@code forNanos} have passed since {@code startNanos}, or the ticker closes; returns how long. */
    long parkUntil(long startNanos, long forNanos);

    /**
     * Parks once, for what is left of {@code forNanos} since {@code startNanos}, where a burst of direct reads may wake
     * it sooner (see the clock class), as may closing; returns how long since {@code startNanos}.
     */
    long restUntil(long startNanos, long forNanos);

    /** The wall-clock time now in nanoseconds, told from the last read where wall-clock reads are slow. */
    long wallNanosNow();

    /** What one direct {@code System.currentTimeMillis()} costs on this host, measured now on the ticker thread. */
    double measureDirectCallNanos();

    /** False once the ticker closed. */
    boolean running();
}
