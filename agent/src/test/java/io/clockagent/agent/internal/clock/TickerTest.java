package io.clockagent.agent.internal.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.agent.bootstrap.CachedClock;
import io.clockagent.agent.internal.caching.CachePolicy;
import java.lang.invoke.MethodHandles;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The ticker against the un-renamed clock class, in-process. Waits are liveness bounds (how long to wait before
 * declaring a failure), never speed targets.
 */
class TickerTest {

    private static final long TICK_NANOS = 1_000_000L;
    private static final long PATIENCE_MILLIS = 10_000L;
    private static final long STALL_MILLIS = 200L;

    private Ticker ticker;

    @AfterEach
    void stopTicker() {
        if (ticker != null) {
            ticker.close();
        }
    }

    @Test
    void publishesTheWallClockAfterTheFirstTick() throws Exception {
        CachedClockWriter clock = Tickers.writer();
        ticker = Ticker.start(clock, Clock.systemUTC(), TICK_NANOS, WaitStrategy.PARK, false, CachePolicy.ALWAYS);

        awaitReading(() -> clock.published() != 0L, "a first tick");
        long cached = CachedClock.currentTimeMillis();

        assertTrue(Math.abs(cached - System.currentTimeMillis()) < 1_000L, "cached " + cached);
        assertEquals(Ticker.THREAD_NAME, tickerThread().getName());
        assertTrue(tickerThread().isDaemon());
        assertEquals(null, tickerThread().getContextClassLoader());
    }

    @Test
    void spinStrategyPublishesToo() throws Exception {
        CachedClockWriter clock = Tickers.writer();
        ticker = Ticker.start(clock, Clock.systemUTC(), TICK_NANOS, WaitStrategy.SPIN, false, CachePolicy.ALWAYS);

        awaitReading(() -> ticker.ticks() > 100, "a hundred ticks");
    }

    @Test
    void onASlowClockReadsTheWallClockAtMostTwiceATick() throws Exception {
        CountingClock wall = new CountingClock();
        ReadsPerTick reads = new ReadsPerTick(wall);
        ticker = Ticker.prepare(wall, TICK_NANOS, WaitStrategy.PARK, false, CachePolicy.ALWAYS);
        ticker.assumeWallReads(true);
        ticker.startOnce(reads.writer);
        awaitReading(() -> ticker.ticks() > 10, "ticks");

        reads.restart();
        // Past an idle probe, whose restart takes a read of its own.
        awaitReading(() -> reads.ticks() > 1_500, "1,500 more ticks");

        assertTrue(reads.maxPerTick() <= 2, "up to " + reads.maxPerTick() + " wall-clock reads in a tick");
        long cached = CachedClock.currentTimeMillis();
        assertTrue(cached == 0L || Math.abs(cached - wall.millis()) < 1_000L, "cached " + cached);
    }

    @Test
    void onAFastClockReadsTheWallClockAroundEachPark() throws Exception {
        CountingClock wall = new CountingClock();
        ReadsPerTick reads = new ReadsPerTick(wall);
        ticker = Ticker.prepare(wall, TICK_NANOS, WaitStrategy.PARK, false, CachePolicy.ALWAYS);
        ticker.assumeWallReads(false);
        ticker.startOnce(reads.writer);
        awaitReading(() -> ticker.ticks() > 10, "ticks");

        reads.restart();
        awaitReading(() -> reads.ticks() > 500, "500 more ticks");

        // Reading before the park and again as it ends the wait takes two reads besides the publish.
        assertTrue(reads.meanPerTick() > 2.0, reads.meanPerTick() + " wall-clock reads a tick");
    }

    @Test
    void closingSendsReadsToTheDirectClock() throws Exception {
        CachedClockWriter clock = Tickers.writer();
        ticker = Ticker.start(clock, Clock.systemUTC(), TICK_NANOS, WaitStrategy.PARK, false, CachePolicy.ALWAYS);
        awaitReading(() -> clock.published() != 0L, "a first tick");

        ticker.close();

        assertEquals(0L, clock.published());
        assertTrue(!Tickers.isAlive(ticker));
        long before = System.currentTimeMillis();
        assertTrue(CachedClock.currentTimeMillis() >= before, "reads go to the direct clock");
    }

    @Test
    void anInterruptNeitherStopsTheTickerNorMakesItSpin() throws Exception {
        CachedClockWriter clock = Tickers.writer();
        ticker = Ticker.start(clock, Clock.systemUTC(), TICK_NANOS, WaitStrategy.PARK, false, CachePolicy.ALWAYS);
        awaitReading(() -> clock.published() != 0L, "a first tick");
        Thread thread = tickerThread();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();

        thread.interrupt();
        long ticksBefore = ticker.ticks();
        long cpuBeforeNanos = threads.getThreadCpuTime(thread.getId());
        long wallBeforeNanos = System.nanoTime();
        keepReading(500);
        long cpuNanos = threads.getThreadCpuTime(thread.getId()) - cpuBeforeNanos;
        long wallNanos = System.nanoTime() - wallBeforeNanos;

        assertTrue(thread.isAlive());
        assertTrue(ticker.ticks() > ticksBefore, "still ticking");
        // A spinning ticker burns the whole window; a parking one a few percent of it.
        assertTrue(cpuNanos < wallNanos / 4, "ticker used " + cpuNanos / 1_000_000 + " ms of CPU in "
                + wallNanos / 1_000_000 + " ms");
    }

    @Test
    void survivesExceptionsAndErrorsThrownInsideIt() throws Exception {
        AtomicInteger publishes = new AtomicInteger();
        CachedClockWriter failing = new CachedClockWriter(CachedClock.class,
                MethodHandles.privateLookupIn(CachedClock.class, MethodHandles.lookup())) {
            @Override
            void publish(long millis) {
                int count = publishes.incrementAndGet();
                if (count == 3) {
                    throw new IllegalStateException("injected");
                }
                if (count == 5) {
                    throw new OutOfMemoryError("injected");
                }
                super.publish(millis);
            }
        };
        ticker = Ticker.start(failing, Clock.systemUTC(), TICK_NANOS, WaitStrategy.PARK, false, CachePolicy.ALWAYS);

        awaitReading(() -> publishes.get() > 20, "ticks after the failures");

        assertEquals(2, ticker.failures());
        assertTrue(Tickers.isAlive(ticker));
        assertTrue(failing.published() != 0L, "publishing again");
    }

    @Test
    void aTickerThatCannotLinkItsHandlesDiesQuietlyAndLeavesTheDirectClock() throws Exception {
        CachedClockWriter unlinkable = new CachedClockWriter(CachedClock.class,
                MethodHandles.privateLookupIn(CachedClock.class, MethodHandles.lookup())) {
            @Override
            void link() throws ReflectiveOperationException {
                throw new NoSuchFieldException("injected");
            }
        };
        ticker = Ticker.start(unlinkable, Clock.systemUTC(), TICK_NANOS, WaitStrategy.PARK, false, CachePolicy.ALWAYS);

        awaitTrue(() -> !Tickers.isAlive(ticker), "the ticker thread to end");

        assertEquals(1, ticker.failures());
        assertEquals(0L, ticker.ticks());
        long before = System.currentTimeMillis();
        assertTrue(CachedClock.currentTimeMillis() >= before, "reads go to the direct clock");
    }

    @Test
    void aTickerClosedBeforeItsFirstRewriteNeverStarts() throws Exception {
        ticker = Ticker.prepare(Clock.systemUTC(), TICK_NANOS, WaitStrategy.PARK, false, CachePolicy.ALWAYS);
        ticker.close();

        ticker.startOnce(Tickers.writer());

        assertFalse(Tickers.isAlive(ticker));
        assertFalse(Thread.getAllStackTraces().keySet().stream()
                .anyMatch(thread -> thread.getName().equals(Ticker.THREAD_NAME)), "no ticker thread");
    }

    @Test
    void startsParkedAndTicksFromTheFirstRead() throws Exception {
        CachedClockWriter clock = Tickers.writer();
        ticker = Ticker.start(clock, Clock.systemUTC(), TICK_NANOS, WaitStrategy.PARK, false, CachePolicy.ALWAYS);
        awaitParkedUntilRead(ticker);
        assertEquals(0L, ticker.ticks(), "no ticks before anyone reads");

        CachedClock.currentTimeMillis();

        awaitTrue(() -> ticker.ticks() > 10, "ticks after the first read");
    }

    @Test
    void idlesWhenNobodyReadsAndWakesOnTheNextRead() throws Exception {
        CachedClockWriter clock = Tickers.writer();
        ticker = Ticker.start(clock, Clock.systemUTC(), TICK_NANOS, WaitStrategy.PARK, false, CachePolicy.ALWAYS);
        awaitReading(() -> clock.published() != 0L, "a first tick");

        awaitTrue(() -> clock.published() == 0L, "the idle probe to withdraw the value");
        long idleTicks = ticker.ticks();
        awaitParkedUntilRead(ticker);
        assertEquals(idleTicks, ticker.ticks(), "no ticks while nobody reads");
        // The ticker counts an idle period only if it lasted longer than a tick; the park can be seen sooner.
        TimeUnit.NANOSECONDS.sleep(2 * TICK_NANOS);

        long read = CachedClock.currentTimeMillis();

        assertTrue(Math.abs(read - System.currentTimeMillis()) < 1_000L, "the read itself is served directly");
        awaitTrue(() -> clock.published() != 0L, "the read to wake the ticker");
        awaitTrue(() -> ticker.idlePeriods() >= 1, "the idle period to be counted");
    }

    @Test
    void followsTheWallClockBackwardsByDefault() throws Exception {
        SteppableClock wall = new SteppableClock();
        CachedClockWriter clock = Tickers.writer();
        ticker = Ticker.start(clock, wall, TICK_NANOS, WaitStrategy.PARK, false, CachePolicy.ALWAYS);
        awaitReading(() -> clock.published() != 0L, "a first tick");
        long beforeStep = clock.published();

        wall.stepMillis(-60_000L);

        awaitReading(() -> clock.published() != 0L && clock.published() < beforeStep - 30_000L, "the step back");
        assertEquals(0L, ticker.clamps());
    }

    @Test
    void monotonicNeverGoesBackwardsAndCountsTheClamps() throws Exception {
        SteppableClock wall = new SteppableClock();
        CachedClockWriter clock = Tickers.writer();
        ticker = Ticker.start(clock, wall, TICK_NANOS, WaitStrategy.PARK, true, CachePolicy.ALWAYS);
        awaitReading(() -> clock.published() != 0L, "a first tick");
        long beforeStep = clock.published();

        wall.stepMillis(-60_000L);
        awaitReading(() -> ticker.clamps() > 10, "clamped ticks");

        assertTrue(CachedClock.currentTimeMillis() >= beforeStep, "never behind what readers saw");
    }

    @Test
    void skipsTicksMissedInAStallInsteadOfCatchingUp() throws Exception {
        SteppableClock wall = new SteppableClock();
        CachedClockWriter clock = Tickers.writer();
        ticker = Ticker.start(clock, wall, TICK_NANOS, WaitStrategy.PARK, false, CachePolicy.ALWAYS);
        awaitReading(() -> clock.published() != 0L, "a first tick");

        long ticksBefore = ticker.ticks();
        wall.stepMillis(10_000L);
        awaitReading(() -> clock.published() > System.currentTimeMillis() + 5_000L, "the jump");

        assertTrue(ticker.ticks() - ticksBefore < 5_000, "caught up " + (ticker.ticks() - ticksBefore)
                + " ticks after a 10 s jump instead of skipping them");
    }

    @Test
    void aStallRightAfterATickShowsAsTheLagOfTheNext() throws Exception {
        StallingClock wall = new StallingClock();
        AtomicBoolean stallAfterPublishing = new AtomicBoolean();
        CachedClockWriter clock = new CachedClockWriter(CachedClock.class,
                MethodHandles.privateLookupIn(CachedClock.class, MethodHandles.lookup())) {
            @Override
            void publish(long millis) {
                super.publish(millis);
                if (stallAfterPublishing.compareAndSet(true, false)) {
                    wall.stallNextRead(STALL_MILLIS);
                }
            }
        };
        ticker = Ticker.start(clock, wall, TICK_NANOS, WaitStrategy.PARK, false, CachePolicy.ALWAYS);
        awaitReading(() -> ticker.ticks() > 10, "ticks");

        stallAfterPublishing.set(true);

        awaitReading(() -> ticker.maxLagNanos() >= TimeUnit.MILLISECONDS.toNanos(STALL_MILLIS / 2),
                "the " + STALL_MILLIS + " ms stall to show as lag");
    }

    @Test
    void readersNeverStepBackWhenTheTickerStallsBetweenItsClockReadAndTheStoreAfterAWithdrawal() throws Exception {
        StallingClock wall = new StallingClock();
        AtomicBoolean stallAfterWithdrawing = new AtomicBoolean();
        CachedClockWriter clock = new CachedClockWriter(CachedClock.class,
                MethodHandles.privateLookupIn(CachedClock.class, MethodHandles.lookup())) {
            @Override
            void withdrawUntilDemand(long floor) {
                super.withdrawUntilDemand(floor);
                // The ticker's next wall-clock read is the one it publishes when a read wakes it.
                if (stallAfterWithdrawing.compareAndSet(true, false)) {
                    wall.stallNextRead(STALL_MILLIS);
                }
            }
        };
        ticker = Ticker.start(clock, wall, TICK_NANOS, WaitStrategy.PARK, false, CachePolicy.ALWAYS);
        awaitReading(() -> ticker.ticks() > 10, "ticks");
        stallAfterWithdrawing.set(true);

        long worstStepBackMillis = 0;
        long directReadsBefore = clock.directReads();
        long previous = CachedClock.currentTimeMillis();
        long deadline = System.currentTimeMillis() + PATIENCE_MILLIS;
        long readUntil = Long.MAX_VALUE;
        // Read through the idle probe's withdrawal, the stalled republishing and a while after it.
        while (System.currentTimeMillis() < readUntil) {
            assertTrue(System.currentTimeMillis() < deadline, "gave up waiting for the stalled republishing");
            long read = CachedClock.currentTimeMillis();
            worstStepBackMillis = Math.max(worstStepBackMillis, previous - read);
            if (readUntil == Long.MAX_VALUE && !stallAfterWithdrawing.get() && clock.published() != 0L) {
                readUntil = System.currentTimeMillis() + 20;
            }
            previous = read;
        }

        // Only a read that finds the value withdrawn, counted on the direct path, wakes the ticker to republish.
        assertTrue(clock.directReads() > directReadsBefore, "a read found the value withdrawn");
        assertEquals(0L, worstStepBackMillis, "the largest step back, in ms");
    }

    private static Thread tickerThread() {
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().equals(Ticker.THREAD_NAME)) {
                return thread;
            }
        }
        throw new AssertionError("no ticker thread");
    }

    private static void keepReading(long millis) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() < end) {
            CachedClock.currentTimeMillis();
            Thread.onSpinWait();
        }
    }

    /**
     * Waits for the ticker thread to sit in its untimed park, where it cannot tick: it waits on a tick boundary with a
     * timed park, and only a read, or closing, ends the untimed one.
     */
    private static void awaitParkedUntilRead(Ticker ticker) throws InterruptedException {
        Thread thread = Thread.getAllStackTraces().keySet().stream()
                .filter(candidate -> candidate.getId() == ticker.threadId()).findFirst()
                .orElseThrow(() -> new AssertionError("no ticker thread"));
        awaitTrue(() -> thread.getState() == Thread.State.WAITING && LockSupport.getBlocker(thread) == ticker,
                "the ticker to park until a read");
    }

    /** Waits while reading the clock, as a busy service would, so the ticker never idles meanwhile. */
    private static void awaitReading(BooleanSupplier condition, String what) throws InterruptedException {
        awaitTrue(() -> CachedClock.currentTimeMillis() != 0L && condition.getAsBoolean(), what);
    }

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + PATIENCE_MILLIS;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("gave up waiting " + PATIENCE_MILLIS + " ms for " + what);
            }
            TimeUnit.MILLISECONDS.sleep(1);
        }
    }

    /**
     * The real clock, which can stall the thread of its next read after taking the time, as the ticker's own work
     * between two ticks can (setting up its first JFR event) or a stopped JVM: the time it returns is then old.
     */
    private static final class StallingClock extends UtcClock {
        private final AtomicLong nextStallMillis = new AtomicLong();

        void stallNextRead(long millis) {
            nextStallMillis.set(millis);
        }

        @Override
        public Instant instant() {
            Instant now = Instant.now();
            long stallNanos = TimeUnit.MILLISECONDS.toNanos(nextStallMillis.getAndSet(0L));
            long startNanos = System.nanoTime();
            // Readers unpark the ticker whenever they find the value withdrawn: park again for the rest.
            for (long left = stallNanos; left > 0; left = stallNanos - (System.nanoTime() - startNanos)) {
                LockSupport.parkNanos(left);
            }
            return now;
        }
    }

    /** The real clock, counting the ticker's reads ({@code instant()}). */
    private static final class CountingClock extends UtcClock {
        private final AtomicLong reads = new AtomicLong();

        long reads() {
            return reads.get();
        }

        @Override
        public Instant instant() {
            reads.incrementAndGet();
            return Instant.now();
        }
    }

    /** A writer that counts the wall-clock reads between each two publishes, from a restart on. */
    private static final class ReadsPerTick {
        final CachedClockWriter writer;
        private final CountingClock wall;
        private final AtomicBoolean counting = new AtomicBoolean();
        private final AtomicLong ticks = new AtomicLong();
        private final AtomicLong readsAtRestart = new AtomicLong();
        private final AtomicLong maxPerTick = new AtomicLong();
        private long readsAtLastPublish;

        ReadsPerTick(CountingClock wall) throws IllegalAccessException {
            this.wall = wall;
            this.writer = new CachedClockWriter(CachedClock.class,
                    MethodHandles.privateLookupIn(CachedClock.class, MethodHandles.lookup())) {
                @Override
                void publish(long millis) {
                    super.publish(millis);
                    countPublish();
                }
            };
        }

        /** Starts counting at the next publish. */
        void restart() {
            ticks.set(0);
            maxPerTick.set(0);
            counting.set(false);
            readsAtRestart.set(-1);
        }

        /** On the ticker thread only. */
        private void countPublish() {
            long reads = wall.reads();
            if (readsAtRestart.compareAndSet(-1, reads)) {
                counting.set(true);
            } else if (counting.get()) {
                maxPerTick.accumulateAndGet(reads - readsAtLastPublish, Math::max);
                ticks.incrementAndGet();
            }
            readsAtLastPublish = reads;
        }

        long ticks() {
            return ticks.get();
        }

        long maxPerTick() {
            return maxPerTick.get();
        }

        double meanPerTick() {
            return (double) (wall.reads() - readsAtRestart.get()) / ticks.get();
        }
    }

    /** The real clock plus an offset that a test can step, as an NTP step or a VM resume would. */
    private static final class SteppableClock extends UtcClock {
        private final AtomicLong offsetMillis = new AtomicLong();

        void stepMillis(long deltaMillis) {
            offsetMillis.addAndGet(deltaMillis);
        }

        @Override
        public Instant instant() {
            return Instant.now().plusMillis(offsetMillis.get());
        }
    }

    /** A test clock in UTC, the only zone the ticker's wall clock needs. */
    private abstract static class UtcClock extends Clock {
        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException("UTC only");
        }
    }
}
