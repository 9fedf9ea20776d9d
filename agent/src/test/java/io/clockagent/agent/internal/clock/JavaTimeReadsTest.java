package io.clockagent.agent.internal.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.agent.bootstrap.CachedClock;
import io.clockagent.agent.internal.classfile.CallSiteRewriter;
import io.clockagent.agent.internal.classfile.RewritingClassLoader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * java.time's reads redirected to the un-renamed clock class, in-process: the TimeReads fixture rewritten as a class
 * where cachedInstants applies and as one where it does not, with a value published far from the real time, so that
 * what comes from the cache cannot be mistaken for a direct read.
 */
class JavaTimeReadsTest {

    /** 2001-09-09T01:46:40Z: years from any real clock this test runs under. */
    private static final long PUBLISHED_MILLIS = 1_000_000_000_000L;
    private static final Instant PUBLISHED = Instant.ofEpochMilli(PUBLISHED_MILLIS);
    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");
    private static final String SOURCE = "io/clockagent/agent/bootstrap/CachedClock";

    private CachedClockWriter writer;

    @BeforeEach
    void publish() throws ReflectiveOperationException {
        writer = Tickers.writer();
        writer.link();
        writer.beginPublish();
        writer.publish(PUBLISHED_MILLIS);
    }

    @AfterEach
    void withdraw() {
        writer.withdraw(Long.MIN_VALUE);
    }

    @Test
    void aSystemClockFromTheRewrittenFactoriesReadsItsMillisFromTheCacheAndItsInstantFromTheRealClock()
            throws Exception {
        Class<?> reads = rewritten(false);

        for (Clock clock : new Clock[] {call(reads, "utc"), call(reads, "defaultZone"), call(reads, "inZone", PARIS),
                this.<Supplier<Clock>>call(reads, "utcReference").get(),
                this.<Function<ZoneId, Clock>>call(reads, "inZoneReference").apply(PARIS)}) {
            assertSame(CachedClock.class, clock.getClass());
            assertEquals(PUBLISHED_MILLIS, clock.millis());
            assertRealTime(clock.instant());
        }
        assertEquals(PUBLISHED_MILLIS, (long) call(reads, "utcMillis"));
        assertEquals(PARIS, this.<Clock>call(reads, "inZone", PARIS).getZone());
        assertEquals(ZoneId.systemDefault(), this.<Clock>call(reads, "defaultZone").getZone());
    }

    @Test
    void withoutCachedInstantsTheReadsOfInstantsAndDateTimesStayDirect() throws Exception {
        Class<?> reads = rewritten(false);

        assertRealTime(call(reads, "instantNow"));
        assertRealTime(this.<Supplier<Instant>>call(reads, "instantReference").get());
        assertRealTime(this.<LocalDateTime>call(reads, "localDateTimeNow").atZone(ZoneId.systemDefault()).toInstant());
    }

    @Test
    void withCachedInstantsEveryReadOfTheFamilyComesFromTheCacheAndAnInstantAllocatesNothing() throws Exception {
        Class<?> reads = rewritten(true);
        ZoneId local = ZoneId.systemDefault();

        Instant first = call(reads, "instantNow");
        assertEquals(PUBLISHED, first);
        assertSame(first, call(reads, "instantNow"), "the ticker's own Instant, not a new one");
        assertEquals(PUBLISHED, this.<Supplier<Instant>>call(reads, "instantReference").get());
        assertEquals(PUBLISHED, this.<Clock>call(reads, "utc").instant());
        assertEquals(PUBLISHED, this.<Clock>call(reads, "inZone", PARIS).instant());
        assertEquals(LocalDateTime.ofInstant(PUBLISHED, local), call(reads, "localDateTimeNow"));
        assertEquals(LocalDateTime.ofInstant(PUBLISHED, local),
                this.<Supplier<LocalDateTime>>call(reads, "localDateTimeReference").get());
        assertEquals(ZonedDateTime.ofInstant(PUBLISHED, PARIS), call(reads, "zonedDateTimeNow", PARIS));
        assertEquals(OffsetDateTime.ofInstant(PUBLISHED, local), call(reads, "offsetDateTimeNow"));
        assertEquals(LocalTime.ofInstant(PUBLISHED, PARIS), call(reads, "localTimeNow", PARIS));
        assertEquals(OffsetTime.ofInstant(PUBLISHED, local), call(reads, "offsetTimeNow"));
        assertEquals(LocalDate.ofInstant(PUBLISHED, local), call(reads, "localDateNow"));
    }

    @Test
    void withNothingCachedAnInstantIsTheRealClocksAtItsOwnResolution() throws Exception {
        writer.withdraw(Long.MIN_VALUE);
        Class<?> reads = rewritten(true);

        assertRealTime(call(reads, "instantNow"));
        assertRealTime(this.<Clock>call(reads, "utc").instant());
        assertTrue(System.currentTimeMillis() - this.<Clock>call(reads, "utc").millis() < 60_000L);
    }

    @Test
    void aMonotonicFloorHoldsForDirectInstantsToo() throws Exception {
        long floorMillis = System.currentTimeMillis() + 3_600_000L;
        writer.withdraw(floorMillis);
        Class<?> reads = rewritten(true);

        assertEquals(Instant.ofEpochMilli(floorMillis), call(reads, "instantNow"));
    }

    @Test
    void clocksThatAreNotTheSystemsAnswerWhatTheyAnsweredWithoutTheAgent() throws Exception {
        Instant at = Instant.parse("2020-02-02T02:02:02.123456Z");
        for (boolean cachedInstants : new boolean[] {false, true}) {
            Class<?> reads = rewritten(cachedInstants);
            Clock fixed = call(reads, "fixed", at);
            assertEquals(Clock.fixed(at, ZoneOffset.UTC), fixed);
            assertEquals(at, call(reads, "instantOf", fixed));
            assertEquals(at.toEpochMilli(), (long) call(reads, "millisOf", fixed));
            Clock offset = call(reads, "offset", fixed, Duration.ofSeconds(5));
            assertEquals(at.plusSeconds(5), call(reads, "instantOf", offset));
            Clock jdkUtc = Clock.systemUTC();
            assertRealTime(call(reads, "instantOf", jdkUtc));
            assertNotEquals(PUBLISHED_MILLIS, (long) call(reads, "millisOf", jdkUtc));
        }
    }

    @Test
    void theCacheClockIsEqualToHashesAndPrintsAsTheJdkSystemClockOfItsZone() {
        Clock utc = CachedClock.systemUTC();
        Clock paris = CachedClock.system(PARIS);

        assertTrue(utc.equals(Clock.systemUTC()), "equal to the JDK's (whose own equals knows only its class)");
        assertTrue(paris.equals(Clock.system(PARIS)));
        assertEquals(utc, CachedClock.cachedInstantsSystemUTC());
        assertEquals(Clock.systemUTC().hashCode(), utc.hashCode());
        assertEquals(Clock.systemUTC().toString(), utc.toString());
        assertEquals(Clock.system(PARIS).hashCode(), paris.hashCode());
        assertEquals(Clock.system(PARIS).toString(), paris.toString());
        assertNotEquals(utc, paris);
        assertNotEquals(utc, Clock.system(PARIS));
        assertNotEquals(utc, Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));
        assertSame(utc, utc.withZone(ZoneOffset.UTC));
        Clock moved = utc.withZone(PARIS);
        assertEquals(paris, moved);
        assertSame(CachedClock.class, moved.getClass());
        assertEquals(PUBLISHED_MILLIS, moved.millis());
        assertThrows(NullPointerException.class, () -> CachedClock.system(null));
    }

    @Test
    void aCacheClockSerializesAsTheJdkSystemClock() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(CachedClock.system(PARIS));
        }
        Object read;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            read = in.readObject();
        }

        assertEquals(Clock.system(PARIS).getClass(), read.getClass());
        assertEquals(Clock.system(PARIS), read);
    }

    /** The fixture, rewritten with the un-renamed clock class as its target, in a loader of its own. */
    private static Class<?> rewritten(boolean cachedInstants) throws ClassNotFoundException {
        String name = RewritingClassLoader.FIXTURES + "TimeReads";
        byte[] rewritten = new CallSiteRewriter(SOURCE, RewritingClassLoader.LIBRARY_CLOCKS).rewrite(
                RewritingClassLoader.originalBytes(name),
                cachedInstants);
        ClassLoader loader = new ClassLoader("time-reads", JavaTimeReadsTest.class.getClassLoader()) {
            @Override
            protected Class<?> loadClass(String className, boolean resolve) throws ClassNotFoundException {
                if (!className.equals(name)) {
                    return super.loadClass(className, resolve);
                }
                synchronized (getClassLoadingLock(className)) {
                    Class<?> loaded = findLoadedClass(className);
                    return loaded != null ? loaded : defineClass(className, rewritten, 0, rewritten.length);
                }
            }
        };
        return Class.forName(name, true, loader);
    }

    @SuppressWarnings("unchecked")
    private <T> T call(Class<?> reads, String method, Object... arguments) throws Exception {
        for (Method candidate : reads.getMethods()) {
            if (candidate.getName().equals(method) && candidate.getParameterCount() == arguments.length) {
                try {
                    return (T) candidate.invoke(null, arguments);
                } catch (InvocationTargetException failed) {
                    throw (Exception) failed.getCause();
                }
            }
        }
        throw new NoSuchMethodException(method);
    }

    /** Within a minute of the real clock, where the published value lies years away. */
    private static void assertRealTime(Instant instant) {
        assertTrue(Math.abs(Duration.between(instant, Instant.now()).toMillis()) < 60_000L, instant + " is not now");
        assertNotSame(PUBLISHED, instant);
    }
}
