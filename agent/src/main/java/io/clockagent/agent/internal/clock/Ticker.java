package io.clockagent.agent.internal.clock;

import io.clockagent.agent.internal.caching.CacheGate;
import io.clockagent.agent.internal.caching.CachePolicy;
import io.clockagent.agent.internal.caching.CachingDecision;
import io.clockagent.agent.internal.caching.GatedTicker;
import io.clockagent.agent.internal.jfr.LateTickRecorder;
import java.time.Clock;
import java.util.concurrent.locks.LockSupport;

/**
 * The single background thread that refreshes the cached clock right after each wall-clock tick boundary, waiting for
 * it as {@link BoundaryWait} does, while its {@link CacheGate} keeps the value published. Only its own thread runs
 * {@link #run()}; {@link #close()} and the counters may be used from any thread.
 */
public final class Ticker implements Runnable, AutoCloseable {

    static final String THREAD_NAME = "clock-agent-ticker";

    /**
     * How often the ticker withdraws the cached value to learn whether anyone reads it (cache=always), or has its gate
     * decide from its sampling windows whether caching pays (cache=auto).
     */
    static final long IDLE_PROBE_INTERVAL_NANOS = 1_000_000_000L;
    private static final long NO_FLOOR = Long.MIN_VALUE;
    private static final long NOT_PUBLISHED = Long.MIN_VALUE;

    /** Set once, before the thread starts; volatile for {@link #clock()}, which any thread may call. */
    private volatile CachedClockWriter clock;
    private final long tickNanos;
    private final boolean monotonic;
    /** Null with cache=always; made here so that the report and the MBean can show it before the thread starts. */
    private final CachingDecision decision;
    private final Thread thread;
    private final BoundaryWait waits;
    /** Written under the ticker's lock, so that a ticker closed before its start never starts. */
    private volatile boolean running = true;
    private volatile boolean started;

    /*
     * Counters: written by the ticker thread only (plain increments of volatile fields, one writer), read by anyone.
     */
    private volatile long ticks;
    private volatile long lateTicks;
    private volatile long maxLagNanos;
    private volatile long idlePeriods;
    private volatile long clamps;
    private volatile long failures;
    private volatile boolean timerSlackLowered;

    /*
     * Used by the ticker thread only: the gate, what the gate sees of the ticker and the late ticks' recorder, all
     * made there (a JVM that never starts the ticker never loads their classes); the last value published (the floor
     * of a monotonic clock), when the ticker last read the wall clock to publish it, and when the gate is next
     * reviewed.
     */
    private CacheGate gate;
    private GatedTicker gated;
    private LateTickRecorder lateTickRecorder;
    private long lastMillis = NO_FLOOR;
    private long publishedWallNanos;
    private long nextProbeNanos;

    private Ticker(Clock wallClock, long tickNanos, WaitStrategy waitStrategy, boolean monotonic,
            CachePolicy cachePolicy) {
        this.tickNanos = tickNanos;
        this.monotonic = monotonic;
        this.waits = new BoundaryWait(this, wallClock, tickNanos, waitStrategy);
        this.decision = cachePolicy == CachePolicy.AUTO ? new CachingDecision(tickNanos) : null;
        this.thread = new Thread(this, THREAD_NAME);
        thread.setDaemon(true);
        // Holding no application class loader, the thread never keeps a redeployed application alive.
        thread.setContextClassLoader(null);
    }

    /**
     * A ticker whose thread is built but not started: see {@link #startOnce}. The thread is built here, on the
     * installing thread, so that it inherits nothing from whichever application thread later starts it.
     *
     * @param wallClock a clock that tests step, or null for {@link Clock#systemUTC()}, which the ticker thread then
     *     looks up itself, so that a JVM that never ticks never loads its time-zone classes
     */
    public static Ticker prepare(Clock wallClock, long tickNanos, WaitStrategy waitStrategy, boolean monotonic,
            CachePolicy cachePolicy) {
        return new Ticker(wallClock, tickNanos, waitStrategy, monotonic, cachePolicy);
    }

    /** A ticker with its thread started; see {@link #prepare}. */
    public static Ticker start(CachedClockWriter clock, Clock wallClock, long tickNanos, WaitStrategy waitStrategy,
            boolean monotonic, CachePolicy cachePolicy) {
        Ticker ticker = prepare(wallClock, tickNanos, waitStrategy, monotonic, cachePolicy);
        ticker.startOnce(clock);
        return ticker;
    }

    /** Instead of measuring this host's wall-clock reads, treats them as slow or fast; before the thread starts. */
    void assumeWallReads(boolean slow) {
        waits.assumeWallReads(slow);
    }

    /**
     * Starts the thread, unless it was started or the ticker closed. The agent calls this as it rewrites its first
     * class: until then nothing can read the cached clock, and a JVM that never loads such a class (a short tool, a
     * {@code java -version}) never pays for the thread. Cheap once started: any class-loading thread may call it.
     *
     * @param clockToTick the clock the thread refreshes; only the first call's counts
     */
    public void startOnce(CachedClockWriter clockToTick) {
        if (!started) {
            synchronized (this) {
                if (running && !started) {
                    started = true;
                    clock = clockToTick;
                    thread.start();
                }
            }
        }
    }

    @Override
    public void run() {
        try {
            waits.start();
            gate = CacheGate.of(decision);
            gated = TickerAsGated.of(this, waits);
            lateTickRecorder = new LateTickRecorder();
            clock.link();
            clock.wakeOnDemand(thread);
        } catch (ReflectiveOperationException | RuntimeException | Error cannotTick) {
            // No value was ever cached, so readers stay on the direct clock; they find no ticker left to wake.
            failures++;
            clock.wakeOnDemand(null);
            return;
        }
        try {
            timerSlackLowered = TimerSlack.lowerForCurrentThread();
            // Start as if idle: a JVM that never reads the clock (a short tool, a startup that only loads classes)
            // never pays for a tick, and the first read starts the ticking, or with cache=auto the count of direct
            // reads, so that a service that reads the clock a little never pays for ticks, least of all as it starts
            // with every core busy (benchmarks/README.md#what-the-start-avoids-and-what-was-dropped).
            if (idleUntilDemand()) {
                waits.measureWallReads();
                if (gate.opensOnFirstRead(gated)) {
                    startTicking();
                }
            }
            nextProbeNanos = System.nanoTime() + IDLE_PROBE_INTERVAL_NANOS;
            long staleFromNanos = NOT_PUBLISHED;
            while (running) {
                try {
                    staleFromNanos = tick(staleFromNanos);
                } catch (RuntimeException | Error failure) {
                    // Survive anything, out of memory included: readers use the direct clock until the next tick.
                    failures++;
                    clock.abandon(floorMillis());
                    staleFromNanos = NOT_PUBLISHED;
                    LockSupport.parkNanos(tickNanos);
                }
            }
        } finally {
            clock.abandon(floorMillis());
            clock.wakeOnDemand(null);
        }
    }

    /**
     * One tick: waits for the boundary from which the published value is stale, publishes, and reviews the gate once
     * a probe interval. A method of its own, called once a tick, so that the JIT compiles it within a second where a
     * loop that runs for the JVM's life would stay interpreted until its back-edges reach an on-stack compilation, a
     * minute at 1,000 ticks a second, at a few microseconds a tick.
     *
     * @param staleFromNanos the first boundary after the wall-clock time the published value holds, which the ticker
     *     waits for and measures the lag from, rather than from the next boundary after whatever it did since, so
     *     that a stall anywhere in the loop, not only in the wait, shows as the lag readers saw (the ticker preempted,
     *     setting up its first JFR event, the whole JVM stopped), and the tick after a stall comes at once;
     *     NOT_PUBLISHED once the value was withdrawn, which readers never see stale
     * @return the boundary from which the value now published is stale, or NOT_PUBLISHED
     */
    private long tick(long staleFromNanos) {
        if (staleFromNanos == NOT_PUBLISHED) {
            staleFromNanos = waits.nextBoundaryNanos(waits.wallNanos());
        }
        if (gate.sampledBefore(staleFromNanos, gated)) {
            // Readers went direct meanwhile, never stale; the fresh value is stale from its own next boundary.
            staleFromNanos = waits.nextBoundaryNanos(publishedWallNanos);
        }
        waits.waitUntil(staleFromNanos);
        publish();
        recordLag(publishedWallNanos - staleFromNanos);
        long nextStaleFromNanos = waits.nextBoundaryNanos(publishedWallNanos);
        if (System.nanoTime() - nextProbeNanos >= 0 && gate.readyToReview()) {
            if (gate.review(gated)) {
                startTicking();
                nextStaleFromNanos = NOT_PUBLISHED;
            }
            nextProbeNanos = System.nanoTime() + IDLE_PROBE_INTERVAL_NANOS;
        }
        return nextStaleFromNanos;
    }

    /** Publishes a fresh value after a pause, and tells the gate that ticking starts. */
    private void startTicking() {
        gate.tickingStarts();
        publish();
    }

    /** Reads the wall clock and publishes it, never below the last value where the clock is monotonic. */
    void publish() {
        clock.beginPublish();
        publishedWallNanos = waits.wallNanos();
        long millis = Math.floorDiv(publishedWallNanos, 1_000_000L);
        if (monotonic && millis < lastMillis) {
            clamps++;
            millis = lastMillis;
        }
        clock.publish(millis);
        ticks++;
        lastMillis = millis;
    }

    /** Sends readers to the direct clock, which never returns less than the last value published if monotonic. */
    void withdraw() {
        clock.withdraw(floorMillis());
    }

    private long floorMillis() {
        return monotonic ? lastMillis : NO_FLOOR;
    }

    private void recordLag(long lagNanos) {
        // The maximum first: a reader that sees a late tick counted must also see a lag of at least one tick.
        if (lagNanos > maxLagNanos) {
            maxLagNanos = lagNanos;
        }
        if (lagNanos >= tickNanos) {
            lateTicks++;
            lateTickRecorder.record(lagNanos, tickNanos);
        }
    }

    /**
     * Withdraws the cached value and sleeps until a reader finds it withdrawn. A busy service wakes the ticker
     * within one read; an idle one leaves it parked, costing nothing.
     *
     * @return whether the ticker was woken by demand (rather than by {@link #close()})
     */
    boolean idleUntilDemand() {
        clock.lowerDemand();
        clock.withdrawUntilDemand(floorMillis());
        long parkedAtNanos = System.nanoTime();
        while (running && !clock.demanded()) {
            Thread.interrupted();
            LockSupport.park(this);
        }
        if (System.nanoTime() - parkedAtNanos > tickNanos) {
            idlePeriods++;
        }
        return running;
    }

    /** Stops the ticker and waits for it to withdraw the cached value, so reads go to the direct clock. */
    @Override
    public void close() {
        synchronized (this) {
            running = false;
        }
        LockSupport.unpark(thread);
        try {
            thread.join();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    boolean running() {
        return running;
    }

    /** The clock this ticker keeps, or null before it started. */
    public CachedClockWriter clock() {
        return clock;
    }

    public long threadId() {
        return thread.getId();
    }

    public long ticks() {
        return ticks;
    }

    public long lateTicks() {
        return lateTicks;
    }

    public long maxLagNanos() {
        return maxLagNanos;
    }

    public long idlePeriods() {
        return idlePeriods;
    }

    public long clamps() {
        return clamps;
    }

    public long failures() {
        return failures;
    }

    public boolean timerSlackLowered() {
        return timerSlackLowered;
    }

    /** Whether the ticker found wall-clock reads slow and reads the wall clock once a tick; false until it ticks. */
    public boolean slowWallReads() {
        return waits.slowWallReads();
    }

    /** With cache=auto, whether caching pays and the figures it was decided on; null with cache=always. */
    public CachingDecision cachingDecision() {
        return decision;
    }
}
