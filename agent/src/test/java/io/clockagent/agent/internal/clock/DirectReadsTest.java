package io.clockagent.agent.internal.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.agent.bootstrap.CachedClock;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reads of a clock that caches nothing: before its ticker links, as through a native start's delay, and withdrawn by
 * the ticker; and of one that caches but counts each read as the direct ones are counted. Each on a fresh copy of the
 * un-renamed clock class, as the other tests' ticker leaves the shared one linked.
 */
class DirectReadsTest {

    private static final int READS = 5;
    /** How long the ticker takes to store after it began to publish, which a reader must wait out. */
    private static final long STORE_DELAY_MILLIS = 200;
    /** The clock's READS_A_RESTING_WAKE: how many direct reads of one thread wake a resting ticker. */
    private static final long READS_A_RESTING_WAKE = 1L << 16;
    /** How long a parked thread that should not have been woken is given to end. */
    private static final long NOT_WOKEN_MILLIS = 200;
    /** How many times a reader waits out a publish that counts reads at once. */
    private static final int WAITED_OUT_ROUNDS = 50;

    private Class<?> clockClass;
    private MethodHandles.Lookup clockLookup;
    private MethodHandle read;

    @BeforeEach
    void defineAFreshClock() throws Exception {
        byte[] bytes;
        try (InputStream in = CachedClock.class.getResourceAsStream(CachedClock.class.getSimpleName() + ".class")) {
            bytes = in.readAllBytes();
        }
        clockClass = new FreshClockLoader().define(bytes);
        clockLookup = MethodHandles.privateLookupIn(clockClass, MethodHandles.lookup());
        read = clockLookup.findStatic(clockClass, "currentTimeMillis", MethodType.methodType(long.class));
    }

    @Test
    void beforeTheTickerLinksAReadIsTheDirectClockCountedWithoutRaisingTheDemand() throws Throwable {
        for (int i = 0; i < READS; i++) {
            long before = System.currentTimeMillis();
            long millis = (long) read.invokeExact();
            assertTrue(millis >= before && millis <= System.currentTimeMillis(), "read " + millis);
        }

        assertEquals(READS, Arrays.stream((long[]) staticField("DIRECT_READS", long[].class)).sum());
        assertFalse((boolean) staticField("demanded", boolean.class), "the demand raised");
    }

    @Test
    void withdrawnWithoutAFloorAReadIsTheDirectClockCountedWithoutRaisingTheDemand() throws Throwable {
        CachedClockWriter writer = linkedWriter();
        writer.lowerDemand();
        writer.withdraw(Long.MIN_VALUE);

        long before = System.currentTimeMillis();
        long millis = (long) read.invokeExact();

        assertTrue(millis >= before && millis <= System.currentTimeMillis(), "read " + millis);
        assertEquals(1L, writer.directReads());
        assertFalse(writer.demanded(), "the demand raised");
    }

    @Test
    void withdrawnUntilDemandAReadRaisesIt() throws Throwable {
        CachedClockWriter writer = linkedWriter();
        writer.lowerDemand();
        writer.withdrawUntilDemand(Long.MIN_VALUE);

        long millis = (long) read.invokeExact();

        assertTrue(writer.demanded(), "the demand raised by a read at " + millis);
        assertEquals(0L, writer.published());
        assertEquals(1L, writer.directReads());
    }

    @Test
    void aPublishBegunOnACellWithdrawnWithoutAFloorMakesReadersWaitForTheStore() throws Throwable {
        CachedClockWriter writer = linkedWriter();
        writer.withdraw(Long.MIN_VALUE);
        long storedMillis = System.currentTimeMillis() - 3_600_000L;

        writer.beginPublish();
        long[] readMillis = new long[1];
        Thread reader = new Thread(() -> {
            try {
                readMillis[0] = (long) read.invokeExact();
            } catch (Throwable failure) {
                throw new AssertionError(failure);
            }
        });
        reader.start();
        reader.join(STORE_DELAY_MILLIS);
        boolean waited = reader.isAlive();
        writer.publish(storedMillis);
        reader.join();

        assertTrue(waited, "the reader waited for the store");
        assertEquals(storedMillis, readMillis[0]);
    }

    @Test
    void aReaderThatWaitedOutAPublishTakesTheStoredValueThoughItsReadsAreCountedAtOnce() throws Throwable {
        CachedClockWriter writer = linkedWriter();
        long floorMillis = System.currentTimeMillis();
        // The reader sees the count begin before it looks at the cell again in most rounds, not all: many rounds.
        for (int round = 0; round < WAITED_OUT_ROUNDS; round++) {
            writer.withdraw(floorMillis);
            long storedMillis = floorMillis + 1 + round;
            writer.lowerDemand();
            writer.beginPublish();
            long[] readMillis = new long[1];
            Thread reader = new Thread(() -> {
                try {
                    readMillis[0] = (long) read.invokeExact();
                } catch (Throwable failure) {
                    throw new AssertionError(failure);
                }
            });
            reader.start();
            awaitSpinning(reader);
            writer.publish(storedMillis);
            assertTrue(writer.countReads());
            reader.join();

            assertTrue(readMillis[0] >= floorMillis, "round " + round + ": a read of " + readMillis[0]);
        }
    }

    @Test
    void aRestingTickerIsWokenByTheReadsOfABurstAndOnlyWhileItRests() throws Throwable {
        CachedClockWriter writer = linkedWriter();
        writer.withdraw(Long.MIN_VALUE);
        Thread resting = new Thread(LockSupport::park, "resting ticker");
        resting.start();
        writer.wakeOnDemand(resting);
        awaitParked(resting);

        writer.setResting(false);
        readTimes(READS_A_RESTING_WAKE);
        resting.join(NOT_WOKEN_MILLIS);
        assertTrue(resting.isAlive(), "woken while not resting");
        writer.setResting(true);
        readTimes(READS_A_RESTING_WAKE - 1);
        resting.join(NOT_WOKEN_MILLIS);
        assertTrue(resting.isAlive(), "woken before a stripe's count grew by a wake's reads");
        readTimes(1);
        resting.join(TimeUnit.SECONDS.toMillis(10));

        assertFalse(resting.isAlive(), "still parked after " + 2 * READS_A_RESTING_WAKE + " reads");
    }

    @Test
    void countingReadsServesTheCachedValueTicksOnAndCountsEachReadUntilTheValueIsWithdrawn() throws Throwable {
        CachedClockWriter writer = linkedWriter();
        long storedMillis = System.currentTimeMillis() - 3_600_000L;
        writer.beginPublish();
        writer.publish(storedMillis);
        long readsBefore = writer.directReads();

        assertTrue(writer.countReads());
        for (int i = 0; i < READS; i++) {
            assertEquals(storedMillis, (long) read.invokeExact());
        }
        writer.beginPublish();
        writer.publish(storedMillis + 1);
        assertEquals(storedMillis + 1, (long) read.invokeExact(), "a tick while counting");
        assertEquals(storedMillis + 1, writer.published());
        assertEquals(storedMillis + 1, ((Instant) clockLookup.findStatic(clockClass, "cachedInstantNow",
                MethodType.methodType(Instant.class)).invoke()).toEpochMilli());
        assertEquals(READS + 2, writer.directReads() - readsBefore, "each read counted");

        writer.withdraw(Long.MIN_VALUE);
        long before = System.currentTimeMillis();
        long millis = (long) read.invokeExact();
        assertTrue(millis >= before, "direct once withdrawn: " + millis);
        assertFalse(writer.countReads(), "no value to count the reads of");
        assertTrue((long) read.invokeExact() >= before, "still direct");
    }

    private void readTimes(long reads) throws Throwable {
        for (long i = 0; i < reads; i++) {
            long millis = (long) read.invokeExact();
            assertTrue(millis > 0, "read " + millis);
        }
    }

    /** Until the reader has found the cell withdrawn and waits for the store, yielding between looks. */
    private void awaitSpinning(Thread reader) throws ReflectiveOperationException, InterruptedException {
        while (!(boolean) staticField("demanded", boolean.class) && reader.isAlive()) {
            Thread.sleep(1);
        }
    }

    private static void awaitParked(Thread thread) throws InterruptedException {
        while (thread.getState() != Thread.State.WAITING) {
            Thread.sleep(1);
        }
    }

    private CachedClockWriter linkedWriter() throws ReflectiveOperationException {
        CachedClockWriter writer = new CachedClockWriter(clockClass, clockLookup);
        writer.link();
        return writer;
    }

    private Object staticField(String name, Class<?> type) throws ReflectiveOperationException {
        return clockLookup.findStaticVarHandle(clockClass, name, type).get();
    }

    /** Defines one copy of the clock class; everything else it names comes from the tests' own class loader. */
    private static final class FreshClockLoader extends ClassLoader {

        FreshClockLoader() {
            super(CachedClock.class.getClassLoader());
        }

        Class<?> define(byte[] bytes) throws IOException {
            return defineClass(CachedClock.class.getName(), bytes, 0, bytes.length);
        }
    }
}
