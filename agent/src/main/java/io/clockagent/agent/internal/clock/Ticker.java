package io.clockagent.agent.internal.clock;

import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.locks.LockSupport;

/**
 * The single background thread that refreshes the cached clock right after each wall-clock tick boundary. Only
 * its own thread runs {@link #run()}; {@link #close()} and the counters may be used from any thread.
 */
public final class Ticker implements Runnable, AutoCloseable {

    static final String THREAD_NAME = "clock-agent-ticker";

    /**
     * How often the ticker withdraws the cached value to learn whether anyone reads it (cache=always), or decides
     * from its sampling windows whether caching pays (cache=auto).
     */
    static final long IDLE_PROBE_INTERVAL_NANOS = 1_000_000_000L;
    /** With cache=auto, while caching: how long each sampling window withdraws the value to count direct reads. */
    static final long SAMPLE_WINDOW_NANOS = 500_000L;
    /** With cache=auto, while caching: windows a second, and fewer where the rate pays clearly. */
    static final int WINDOWS_PER_SECOND = 20;
    static final int CLEAR_WINDOWS_PER_SECOND = 4;
    /**
     * With cache=auto, while reads go direct: how soon the ticker looks at their count after a read woke it, and
     * again while the last look's rate alone would pay; otherwise it looks once a slot, since every wake-up costs
     * CPU.
     */
    static final long DIRECT_LOOK_NANOS = 10_000_000L;
    /** Reads per batch, and batches, of the ticker's measurement of a direct call: 100,000 calls, once. */
    private static final int DIRECT_CALLS_PER_BATCH = 5_000;
    private static final int DIRECT_CALL_BATCHES = 20;
    /** With wait=spin, how long before the boundary parking ends and spinning starts: above Linux's wake-up lag. */
    static final long SPIN_LEAD_NANOS = 100_000L;
    private static final long NO_FLOOR = Long.MIN_VALUE;
    private static final long NOT_PUBLISHED = Long.MIN_VALUE;

    /** Set once, before the thread starts; volatile for {@link #clock()}, which any thread may call. */
    private volatile CachedClockWriter clock;
    /** Null, for the system clock, until the thread looks it up; see {@link #prepare}. Used by that thread only. */
    private Clock wallClock;
    private final long tickNanos;
    private final boolean spin;
    private final boolean monotonic;
    /** Null with cache=always. */
    private final CachingDecision decision;
    private final Thread thread;
    private final WakeLead wakeLead = new WakeLead();
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
    /** A runtime linked without jdk.jfr cannot even load the late-tick event class; one that fails is not retried. */
    private boolean recordsLateTicks = ModuleLayer.boot().findModule("jdk.jfr").isPresent();

    /*
     * With cache=auto, used by the ticker thread only: its estimates, made there (a JVM that never ticks never loads
     * their classes), and when the next sampling window is due.
     */
    private SampledReads sampledReads;
    private DirectReadHistory directReadHistory;
    private int windowsPerSecond = WINDOWS_PER_SECOND;
    private long nextWindowNanos;
    private long randomBits = System.nanoTime() | 1;

    /** When the ticker last read the wall clock to publish it; used by the ticker thread only. */
    private long publishedWallNanos;

    /*
     * Where a wall-clock read is slow (see WallReadCost), set before the first tick: the ticker's last wall-clock read
     * and System.nanoTime() right after it, from which it places the next boundary on the monotonic clock instead of
     * reading the wall clock again until then. Used by the ticker thread only, but for {@link #slowWallReads()}.
     */
    private volatile boolean slowWallReads;
    /** Whether a test set {@link #slowWallReads} instead of having this host's reads measured. */
    private boolean wallReadsAssumed;
    private long lastWallNanos;
    private long lastWallReadAtNanos;

    /* What the ticker has spent since it last started ticking, for cache=auto: wall and CPU nanoseconds. */
    private long tickingSinceNanos;
    private long tickingSinceCpuNanos;
    /** Where the direct-call measurement's sums go, so that they cannot be optimised away. */
    private static volatile long sink;

    private Ticker(Clock wallClock, long tickNanos, WaitStrategy waitStrategy, boolean monotonic,
            CachePolicy cachePolicy) {
        this.wallClock = wallClock;
        this.tickNanos = tickNanos;
        this.spin = waitStrategy == WaitStrategy.SPIN;
        this.monotonic = monotonic;
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
     *     looks up itself: its time-zone classes cost a JVM that never ticks a millisecond of startup on JDK 25
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
        slowWallReads = slow;
        wallReadsAssumed = true;
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
            if (wallClock == null) {
                wallClock = Clock.systemUTC();
            }
            if (decision != null) {
                sampledReads = new SampledReads();
                directReadHistory = new DirectReadHistory();
            }
            clock.link();
            clock.wakeOnDemand(thread);
        } catch (ReflectiveOperationException | RuntimeException | Error cannotTick) {
            // No value was ever cached, so readers stay on the direct clock; they find no ticker left to wake.
            failures++;
            clock.wakeOnDemand(null);
            return;
        }
        long lastMillis = NO_FLOOR;
        try {
            timerSlackLowered = TimerSlack.lowerForCurrentThread();
            // Start as if idle: a JVM that never reads the clock (a short tool, a startup that only loads classes)
            // never pays for a tick, and the first read starts the ticking, or with cache=auto the count of direct
            // reads, so that a service that reads the clock a little never pays for ticks, least of all as it starts
            // (a second of ticks, with the service's start busy on every core, cost Spring Boot's start 90 ms here).
            if (idleUntilDemand(lastMillis)) {
                if (!wallReadsAssumed) {
                    slowWallReads = WallReadCost.isSlow();
                }
                if (decision != null) {
                    decision.directCallMeasured(directCallNanos());
                }
                if (decision == null || directUntilCachingPays(lastMillis)) {
                    lastMillis = startTicking(lastMillis);
                }
            }
            long nextProbeNanos = System.nanoTime() + IDLE_PROBE_INTERVAL_NANOS;
            /*
             * The boundary from which the published value is stale: the first one after the wall-clock time it holds.
             * The ticker waits for it and measures the lag from it, not from the next boundary after whatever it did
             * since, so that a stall anywhere in the loop, not only in the wait, shows as the lag that readers saw
             * (the ticker preempted, setting up its first JFR event, the whole JVM stopped), and the tick after a stall
             * comes at once. NOT_PUBLISHED once the value was withdrawn, which readers never see stale.
             */
            long staleFromNanos = NOT_PUBLISHED;
            while (running) {
                try {
                    if (staleFromNanos == NOT_PUBLISHED) {
                        staleFromNanos = nextBoundaryNanos(wallNanos());
                    }
                    if (decision != null && windowDueBefore(staleFromNanos)) {
                        // Readers go direct during the window, never stale; the fresh value is stale from its own
                        // next boundary.
                        lastMillis = sample(lastMillis);
                        staleFromNanos = nextBoundaryNanos(publishedWallNanos);
                    }
                    waitUntil(staleFromNanos);
                    lastMillis = publish(lastMillis);
                    recordLag(publishedWallNanos - staleFromNanos);
                    staleFromNanos = nextBoundaryNanos(publishedWallNanos);
                    // With cache=auto the decision waits for a window, so that it never decides on none.
                    if (System.nanoTime() - nextProbeNanos >= 0 && (decision == null || sampledReads.windows() > 0)) {
                        boolean resume = decision == null ? idleUntilDemand(lastMillis) : cachingPays(lastMillis);
                        if (resume) {
                            lastMillis = startTicking(lastMillis);
                            staleFromNanos = NOT_PUBLISHED;
                        }
                        nextProbeNanos = System.nanoTime() + IDLE_PROBE_INTERVAL_NANOS;
                    }
                } catch (RuntimeException | Error failure) {
                    // Survive anything, out of memory included: readers use the direct clock until the next tick.
                    failures++;
                    clock.abandon(monotonic ? lastMillis : NO_FLOOR);
                    staleFromNanos = NOT_PUBLISHED;
                    LockSupport.parkNanos(tickNanos);
                }
            }
        } finally {
            clock.abandon(monotonic ? lastMillis : NO_FLOOR);
            clock.wakeOnDemand(null);
        }
    }

    /** Publishes a fresh value after a pause, and starts counting what the ticking costs from here. */
    private long startTicking(long lastMillis) {
        tickingSinceNanos = System.nanoTime();
        tickingSinceCpuNanos = ThreadCpuTime.currentThreadNanos();
        return publish(lastMillis);
    }

    /**
     * cache=auto, while caching, once per probe interval: records what the ticking cost and decides from the sampling
     * windows of the interval. Where caching stops, reads go direct until their count shows that it pays again; where
     * it goes on but no window saw a read, the ticker idles until the next read.
     *
     * @return whether to tick again (false once closed)
     */
    private boolean cachingPays(long lastMillis) {
        long cpuNanos = ThreadCpuTime.currentThreadNanos();
        long tickedNanos = System.nanoTime() - tickingSinceNanos;
        if (cpuNanos != ThreadCpuTime.UNKNOWN && tickingSinceCpuNanos != ThreadCpuTime.UNKNOWN && tickedNanos > 0) {
            decision.tickerCostMeasured((cpuNanos - tickingSinceCpuNanos) * 1e9 / tickedNanos);
        }
        long nowNanos = System.nanoTime();
        double sampledReadsPerSecond = sampledReads.readsPerSecond();
        boolean keep = decision.keepCaching(sampledReadsPerSecond, sampledReads.upperBoundReadsPerSecond(nowNanos),
                nowNanos);
        sampledReads.restart();
        if (!keep) {
            return directUntilCachingPays(lastMillis);
        }
        windowsPerSecond = decision.paysClearly(sampledReadsPerSecond) ? CLEAR_WINDOWS_PER_SECOND : WINDOWS_PER_SECOND;
        // Caching goes on though no window saw a read: a reader in bursts, between two. Like cache=always, idle until
        // the next read rather than tick through the gap.
        return sampledReadsPerSecond > 0 || idleUntilDemand(lastMillis);
    }

    /** Whether the next sampling window falls due before the given boundary. */
    private boolean windowDueBefore(long boundaryWallNanos) {
        long nowNanos = System.nanoTime();
        // Where wall-clock reads are slow, the tick's one read is its publish: tell the time from the last read.
        long wallNowNanos = slowWallReads ? lastWallNanos + (nowNanos - lastWallReadAtNanos) : wallNanos();
        return nextWindowNanos - nowNanos < boundaryWallNanos - wallNowNanos;
    }

    /**
     * Waits for the sampling window that is due, withdraws the value for it, counts the reads that go direct
     * meanwhile, and publishes afresh.
     */
    private long sample(long lastMillis) {
        parkUntil(System.nanoTime(), nextWindowNanos - System.nanoTime());
        clock.withdraw(monotonic ? lastMillis : NO_FLOOR);
        long readsBefore = clock.directReads();
        long startNanos = System.nanoTime();
        long elapsedNanos = parkUntil(startNanos, SAMPLE_WINDOW_NANOS);
        sampledReads.window(clock.directReads() - readsBefore, elapsedNanos, startNanos + elapsedNanos);
        nextWindowNanos = startNanos + elapsedNanos + windowGapNanos();
        return publish(lastMillis);
    }

    private void startWindows(long nowNanos) {
        sampledReads.restart();
        windowsPerSecond = WINDOWS_PER_SECOND;
        nextWindowNanos = nowNanos + windowGapNanos();
    }

    /**
     * The time to the next window: random, between half and one and a half times the mean spacing, so that windows do
     * not keep falling between bursts that recur at a fixed period. An xorshift generator: no class to load, no
     * allocation.
     */
    private long windowGapNanos() {
        randomBits ^= randomBits << 13;
        randomBits ^= randomBits >>> 7;
        randomBits ^= randomBits << 17;
        double unit = (randomBits >>> 11) * 0x1.0p-53;
        return (long) ((0.5 + unit) * 1e9 / windowsPerSecond);
    }

    /**
     * Sends reads to the direct clock and counts them, slot by slot, until their rate pays for caching; a slot without
     * a read idles the ticker until the next read. Each look's rate also feeds the peak that the sampling windows'
     * upper bound remembers.
     *
     * @return whether to tick again (false once closed)
     */
    private boolean directUntilCachingPays(long lastMillis) {
        clock.withdraw(monotonic ? lastMillis : NO_FLOOR);
        directReadHistory.begin(System.nanoTime());
        boolean lookSoon = true;
        while (running) {
            long slotStartNanos = System.nanoTime();
            long slotStartReads = clock.directReads();
            long lookedAtNanos = slotStartNanos;
            long lookedAtReads = slotStartReads;
            while (running && lookedAtNanos - slotStartNanos < DirectReadHistory.SLOT_NANOS) {
                long slotLeftNanos = slotStartNanos + DirectReadHistory.SLOT_NANOS - lookedAtNanos;
                parkUntil(lookedAtNanos, lookSoon ? Math.min(DIRECT_LOOK_NANOS, slotLeftNanos) : slotLeftNanos);
                long nowNanos = System.nanoTime();
                long reads = clock.directReads();
                double lookReadsPerSecond = (reads - lookedAtReads) * 1e9 / Math.max(1, nowNanos - lookedAtNanos);
                sampledReads.observePeak(lookReadsPerSecond, nowNanos);
                double countedReadsPerSecond = directReadHistory.readsPerSecond(slotStartNanos,
                        reads - slotStartReads, nowNanos);
                if (decision.startCaching(countedReadsPerSecond, nowNanos)) {
                    startWindows(nowNanos);
                    return true;
                }
                lookSoon = decision.paysToStart(lookReadsPerSecond);
                lookedAtNanos = nowNanos;
                lookedAtReads = reads;
            }
            long slotReads = clock.directReads() - slotStartReads;
            directReadHistory.slotEnded(slotStartNanos, slotReads);
            if (slotReads == 0) {
                if (!idleUntilDemand(lastMillis)) {
                    return false;
                }
                lookSoon = true;
            }
        }
        return false;
    }

    /** Parks until {@code forNanos} have passed since {@code startNanos}, or the ticker closes; returns how long. */
    private long parkUntil(long startNanos, long forNanos) {
        long elapsedNanos;
        // A reader that finds the value withdrawn may unpark the ticker early: park again for the rest.
        while ((elapsedNanos = System.nanoTime() - startNanos) < forNanos && running) {
            Thread.interrupted();
            LockSupport.parkNanos(this, forNanos - elapsedNanos);
        }
        return elapsedNanos;
    }

    /**
     * What one direct {@code System.currentTimeMillis()} costs on this host, measured on the ticker's thread: the
     * fastest of a few short batches, which preemption cannot make faster, less the same loop without the call. The
     * agent's own code is never rewritten, so these are direct calls.
     */
    private static double directCallNanos() {
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

    private long publish(long lastMillis) {
        clock.beginPublish();
        publishedWallNanos = wallNanos();
        long millis = Math.floorDiv(publishedWallNanos, 1_000_000L);
        if (monotonic && millis < lastMillis) {
            clamps++;
            millis = lastMillis;
        }
        clock.publish(millis);
        ticks++;
        return millis;
    }

    private void recordLag(long lagNanos) {
        // The maximum first: a reader that sees a late tick counted must also see a lag of at least one tick.
        if (lagNanos > maxLagNanos) {
            maxLagNanos = lagNanos;
        }
        if (lagNanos >= tickNanos) {
            lateTicks++;
            if (recordsLateTicks && JfrRecording.isRunning()) {
                try {
                    LateTickEvent.commit(lagNanos, tickNanos);
                } catch (LinkageError | RuntimeException | OutOfMemoryError eventFailed) {
                    // JFR could not even set the event up (out of memory, say): go on without it.
                    recordsLateTicks = false;
                }
            }
        }
    }

    /**
     * Waits on an absolute wall-clock deadline, so ticks never drift; after a stall the next boundary is computed
     * afresh, so missed ticks are skipped rather than caught up. If the wall clock steps back, the deadline lies
     * more than a tick ahead: the wait ends at once, so the cached value follows the step instead of freezing.
     * Parking ends a lead before the deadline (learnt with park, fixed with spin) and spinning covers the rest, except
     * where wall-clock reads are slow: see {@link #parkUntilBoundary}.
     */
    private void waitUntil(long deadlineWallNanos) {
        if (slowWallReads) {
            parkUntilBoundary(deadlineWallNanos);
            return;
        }
        while (running) {
            // An interrupt would make every park return at once: clear it so the ticker neither stops nor spins.
            Thread.interrupted();
            long remainingNanos = deadlineWallNanos - wallNanos();
            if (remainingNanos <= 0 || remainingNanos > tickNanos) {
                return;
            }
            long leadNanos = spin ? SPIN_LEAD_NANOS : wakeLead.nanos();
            if (remainingNanos > leadNanos) {
                long wakeWallNanos = deadlineWallNanos - leadNanos;
                LockSupport.parkNanos(this, remainingNanos - leadNanos);
                if (!spin) {
                    wakeLead.observe(wallNanos() - wakeWallNanos);
                }
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

    /**
     * Withdraws the cached value and sleeps until a reader finds it withdrawn. A busy service wakes the ticker
     * within one read; an idle one leaves it parked, costing nothing.
     *
     * @return whether the ticker was woken by demand (rather than by {@link #close()})
     */
    private boolean idleUntilDemand(long lastMillis) {
        clock.lowerDemand();
        clock.withdraw(monotonic ? lastMillis : NO_FLOOR);
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

    /** The first tick boundary after {@code wallNanos}. */
    private long nextBoundaryNanos(long wallNanos) {
        return Math.floorDiv(wallNanos, tickNanos) * tickNanos + tickNanos;
    }

    private long wallNanos() {
        Instant now = wallClock.instant();
        long wallNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        if (slowWallReads) {
            lastWallNanos = wallNanos;
            lastWallReadAtNanos = System.nanoTime();
        }
        return wallNanos;
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
        return slowWallReads;
    }

    /** With cache=auto, whether caching pays and the figures it was decided on; null with cache=always. */
    public CachingDecision cachingDecision() {
        return decision;
    }
}
