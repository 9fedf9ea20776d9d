package io.clockagent.agent.internal.clock;

import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.locks.LockSupport;

/**
 * How the ticker reads the wall clock and waits for each tick boundary on it: parking to the boundary (then spinning
 * the last stretch with wait=spin) where a read is cheap, and parking on the monotonic clock from the last read where
 * it is slow (see {@link WallReadCost}). Used by the ticker thread only, but for {@link #slowWallReads()}; its parks
 * are the ticker's, and end when it closes.
 */
final class BoundaryWait {

    /** With wait=spin, how long before the boundary parking ends and spinning starts: above Linux's wake-up lag. */
    static final long SPIN_LEAD_NANOS = 100_000L;

    private final Ticker ticker;
    private final long tickNanos;
    private final boolean spin;
    /** Null, for the system clock, until the ticker thread looks it up in {@link #start}. */
    private Clock wallClock;

    /*
     * Where a wall-clock read is slow, set before the first tick: the ticker's last wall-clock read and
     * System.nanoTime() right after it, from which it places the next boundary on the monotonic clock instead of
     * reading the wall clock again until then. slowWallReads is volatile for whoever shows it, on any thread.
     */
    private volatile boolean slowWallReads;
    /** Whether a test set {@link #slowWallReads} instead of having this host's reads measured. */
    private boolean wallReadsAssumed;
    private long lastWallNanos;
    private long lastWallReadAtNanos;

    /** @param wallClock a clock that tests step, or null for {@link Clock#systemUTC()} */
    BoundaryWait(Ticker ticker, Clock wallClock, long tickNanos, WaitStrategy waitStrategy) {
        this.ticker = ticker;
        this.wallClock = wallClock;
        this.tickNanos = tickNanos;
        this.spin = waitStrategy == WaitStrategy.SPIN;
    }

    /** Instead of measuring this host's wall-clock reads, treats them as slow or fast; before the ticker starts. */
    void assumeWallReads(boolean slow) {
        slowWallReads = slow;
        wallReadsAssumed = true;
    }

    /** On the ticker thread as it starts. */
    void start() {
        if (wallClock == null) {
            wallClock = Clock.systemUTC();
        }
    }

    /** Measures whether this host's wall-clock reads are slow, unless a test said so; before the first tick. */
    void measureWallReads() {
        if (!wallReadsAssumed) {
            slowWallReads = WallReadCost.isSlow();
        }
    }

    /**
     * Waits on an absolute wall-clock deadline, so ticks never drift; after a stall the next boundary is computed
     * afresh, so missed ticks are skipped rather than caught up. If the wall clock steps back, the deadline lies
     * more than a tick ahead: the wait ends at once, so the cached value follows the step instead of freezing.
     * wait=park parks to the deadline itself, so every tick is late by the kernel's wake-up lag (tens of microseconds,
     * the one cost it cannot avoid: a thread woken 1,000 times a second); wait=spin parks until a lead before it and
     * spins the rest, exact to a few microseconds for the CPU of that spinning. Where wall-clock reads are slow, either
     * parks as {@link #parkUntilBoundary} does.
     */
    void waitUntil(long deadlineWallNanos) {
        if (slowWallReads) {
            parkUntilBoundary(deadlineWallNanos);
            return;
        }
        long leadNanos = spin ? SPIN_LEAD_NANOS : 0L;
        while (ticker.running()) {
            // An interrupt would make every park return at once: clear it so the ticker neither stops nor spins.
            Thread.interrupted();
            long remainingNanos = deadlineWallNanos - wallNanos();
            if (remainingNanos <= 0 || remainingNanos > tickNanos) {
                return;
            }
            if (remainingNanos > leadNanos) {
                // A park that returns early (a reader's unpark, a spurious wake-up) parks again for what is left.
                LockSupport.parkNanos(ticker, remainingNanos - leadNanos);
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /**
     * Where wall-clock reads are slow: parks until the deadline as {@code System.nanoTime()} places it from the last
     * wall-clock read, reading no wall clock meanwhile, so that the publish that follows is the tick's only read, or
     * its second where the tick started with a read of its own (after a pause, a sampling window). No lead and no
     * spin: waking before the boundary would take another read to find out, so every tick is late by the kernel's
     * wake-up lag. The wall clock stepped meanwhile shows at that publish, at most a tick later than a spin would see
     * it; the deadline always lies within a tick of the last read, as it is computed from it.
     */
    private void parkUntilBoundary(long deadlineWallNanos) {
        long remainingNanos = deadlineWallNanos - lastWallNanos;
        if (remainingNanos <= tickNanos) {
            parkUntil(lastWallReadAtNanos, remainingNanos);
        }
    }

    /** Parks until {@code forNanos} have passed since {@code startNanos}, or the ticker closes; returns how long. */
    long parkUntil(long startNanos, long forNanos) {
        long elapsedNanos;
        // A reader that finds the value withdrawn may unpark the ticker early: park again for the rest.
        while ((elapsedNanos = System.nanoTime() - startNanos) < forNanos && ticker.running()) {
            Thread.interrupted();
            LockSupport.parkNanos(ticker, forNanos - elapsedNanos);
        }
        return elapsedNanos;
    }

    /**
     * Parks once, for what is left of {@code forNanos} since {@code startNanos}, unless the ticker closed; an unpark
     * ends it sooner. Returns how long since {@code startNanos}.
     */
    long parkOnce(long startNanos, long forNanos) {
        long elapsedNanos = System.nanoTime() - startNanos;
        if (elapsedNanos < forNanos && ticker.running()) {
            Thread.interrupted();
            LockSupport.parkNanos(ticker, forNanos - elapsedNanos);
        }
        return System.nanoTime() - startNanos;
    }

    /** The first tick boundary after {@code wallNanos}. */
    long nextBoundaryNanos(long wallNanos) {
        return Math.floorDiv(wallNanos, tickNanos) * tickNanos + tickNanos;
    }

    /** Reads the wall clock. */
    long wallNanos() {
        Instant now = wallClock.instant();
        long wallNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        if (slowWallReads) {
            lastWallNanos = wallNanos;
            lastWallReadAtNanos = System.nanoTime();
        }
        return wallNanos;
    }

    /** The wall-clock time now: where reads are slow, told from the last read, as a tick's one read is its publish. */
    long wallNanosNow() {
        return slowWallReads ? lastWallNanos + (System.nanoTime() - lastWallReadAtNanos) : wallNanos();
    }

    /** Whether wall-clock reads are slow here, so that the ticker reads the wall clock once a tick. */
    boolean slowWallReads() {
        return slowWallReads;
    }
}
