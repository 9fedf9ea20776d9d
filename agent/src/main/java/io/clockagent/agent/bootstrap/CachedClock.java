package io.clockagent.agent.bootstrap;

import java.io.Serializable;
import java.lang.invoke.MethodHandles;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;

/**
 * The clock that rewritten call sites read instead of {@code System.currentTimeMillis()} and {@code java.time}'s
 * system clock; any thread may call it.
 *
 * <p>At startup the agent defines a copy of this class named {@code java.lang.ClockAgentCachedClock} in the boot
 * loader, so that every class loader and module resolves it, and hands the write side to its ticker alone. The class
 * therefore uses {@code java.base} only ({@code java.*}, and {@code jdk.internal.misc.Unsafe} as {@link CellAccess}),
 * and offers application code nothing but reads.
 *
 * <p>An instance is a system clock of {@code java.time}, as {@code Clock.systemUTC()} and its siblings give, whose
 * {@link #millis()} reads the cache: rewritten call sites of those factories get one, as millisecond resolution is
 * what {@code millis()} has anyway. Its {@link #instant()} reads the real clock, at the microseconds it has on Linux,
 * unless the clock was made in a package the {@code cachedInstants} option names, where the instant comes from the
 * cache, at the tick's resolution, as do the {@code now()} methods the same option redirects here. It is equal to,
 * hashes and prints as the JDK's system clock of its zone, and serializes as that clock.
 */
public final class CachedClock extends Clock implements Serializable {

    /*
     * Who writes, who reads. The ticker thread alone stores the cached millis, once per tick, with setOpaque.
     * Application threads load it with getOpaque. Opaque is the weakest mode that still works: the value is a
     * self-contained long that orders no other memory, so acquire/release would buy nothing, but a plain field would
     * let the JIT hoist the load out of `while (currentTimeMillis() < deadline) {}` and spin forever. Opaque also keeps
     * the 64-bit access atomic. On x86 both sides compile to a plain mov.
     *
     * Two values of the cell mean "no cached value", and readers then take the direct clock. DIRECT (0) holds before
     * the ticker links, that is all through a native start's delay and its wait for reads, and while the ticker has
     * withdrawn the value without a floor only to count the direct reads (cache=auto): a reader then returns the
     * direct clock as it is, once it has counted the read and found the cell still DIRECT after its read (below), so
     * that a read costs about what a direct read costs. WITHDRAWN holds while the ticker idles, where it has a floor,
     * and after it stopped or died: readers then also raise the demand flag, which wakes an idle ticker, and take the
     * floor. The flag is written only when it is down, so a busy reader writes nothing shared; the ticker lowers it at
     * most once per idle probe. With monotonic=true the ticker leaves its last value in floorMillis whenever it
     * withdraws, so the direct path never goes behind what readers already saw.
     *
     * The way back from the direct clock must not step back either. The ticker reads the wall clock and then stores
     * it; a reader that went direct in between, or while the ticker was preempted there, got a later time than the
     * one about to be stored. So the ticker moves a DIRECT cell to WITHDRAWN and raises `publishing` before it reads
     * the wall clock, and lowers it after the store. A reader that found the cell DIRECT again after its direct read
     * returns that read: the ticker had not yet begun to publish, so any value stored later was read from the wall
     * clock after it. Otherwise a direct read is returned only if, after it, `publishing` is seen down and no value is
     * stored: seen up, the reader waits for the store, which takes the ticker a clock read; seen down with a value
     * stored, it returns that value.
     *
     * A third value, COUNTED, has readers count their reads as the direct ones are counted and take the ticker's
     * value from countedMillis: cache=auto prices a direct read in the service by comparing its process CPU time a
     * read while the reads go direct with that while they are counted this way, so that the two differ by the clock
     * call alone. The ticker stores countedMillis before the cell becomes COUNTED, and each tick meanwhile, and
     * leaves with a value in the cell no lower, so that a reader never steps back.
     *
     * Readers reach the cells through the JDK's Unsafe (see CellAccess for why), the ticker through a VarHandle,
     * which does the same accesses.
     */
    private static final CellAccess CELLS = CellAccess.getUnsafe();
    private static final long LONGS_BASE_OFFSET = Runtime.version().feature() >= CellAccessSince24.FEATURE
            ? CellAccessSince24.getUnsafe().arrayBaseOffset(long[].class) : CELLS.arrayBaseOffset(long[].class);
    private static final long[] PADDED_CELLS = new long[CachedClock.PADDED_LENGTH];
    private static final long VALUE_OFFSET = cellOffset(CachedClock.VALUE_INDEX);
    /* The cell's values that mean "nothing cached" (see above). */
    private static final long DIRECT = 0L;
    private static final long WITHDRAWN = Long.MIN_VALUE;
    private static final long COUNTED = Long.MIN_VALUE + 1;
    /*
     * The reads that took the direct clock, or found the cell COUNTED, for cache=auto's estimate of the read rate: the
     * cached path counts nothing. A cell per stripe, a stripe per thread by its id, cells as far apart as the value's
     * padding, so that threads rarely write one line: ids are handed out in sequence, so eight threads created one
     * after another never share a stripe, and an id costs a field load where an identity hash costs a header test. An
     * increment is a plain read and write, which may lose a count when two threads of one stripe race: the ticker
     * needs an estimate, never a tally. While the ticker rests between looks at a count too low to pay for caching,
     * no read wakes it but every READS_A_RESTING_WAKE-th of a stripe, so that a burst that starts meanwhile wakes it
     * within that many reads (a few milliseconds) rather than at the end of its rest, and a service that reads now and
     * then does not.
     */
    private static final int STRIPES = 8;
    private static final long READS_A_RESTING_WAKE = 1L << 16;
    private static final long[] DIRECT_READS = new long[(STRIPES + 1) * CachedClock.VALUE_INDEX];

    /*
     * The ticker's Instant of the millis it stores, stored just before them, so that an instant read from the cache
     * allocates nothing. A reader takes it only if it holds the millis it read from the cell: a reader between the
     * two stores sees another tick's instant and makes its own. Instant's fields are final, so a reader that sees the
     * reference sees the whole object.
     */
    private static volatile Instant tickInstant;
    /* The system clocks in UTC, made on first use: ZoneOffset's initialization is not the clock definition's to pay. */
    private static Clock utc;
    private static Clock utcCachedInstants;
    private static volatile boolean demanded;
    private static volatile Thread ticker;
    private static volatile long floorMillis = Long.MIN_VALUE;
    private static volatile boolean publishing;
    private static volatile boolean resting;
    private static volatile long countedMillis;

    private static final long serialVersionUID = 1L;

    private final ZoneId zone;
    private final boolean cachedInstants;

    private CachedClock(ZoneId zone, boolean cachedInstants) {
        this.zone = zone;
        this.cachedInstants = cachedInstants;
    }

    /*
     * The write side's access, for the -agentpath entry, whose C half calls this private method through JNI, which
     * checks no access: without java.instrument nothing can open java.lang to the agent. Application code would need
     * java.lang opened to it to call it, and then it could reach the fields themselves anyway.
     */
    private static MethodHandles.Lookup writeAccess() {
        return MethodHandles.lookup();
    }

    /** The cached wall-clock time in milliseconds, or the direct clock when nothing is cached. */
    public static long currentTimeMillis() {
        long cachedMillis = CELLS.getLongOpaque(PADDED_CELLS, VALUE_OFFSET);
        // One test for the cached path: DIRECT is 0 and WITHDRAWN negative, as only a clock set before 1970 is.
        return cachedMillis > 0L ? cachedMillis : notCached(cachedMillis);
    }

    private static long notCached(long cell) {
        if (cell == COUNTED) {
            countRead();
            // Pairs with the ticker's release store of COUNTED, after its store of the value read here.
            CELLS.loadFence();
            return countedMillis;
        }
        return cell == DIRECT || cell == WITHDRAWN ? settleDirect(System.currentTimeMillis()) : cell;
    }

    /** Counts a read in the calling thread's stripe, waking a resting ticker every so many (see above). */
    private static void countRead() {
        long cell = cellOffset((((int) Thread.currentThread().getId() & (STRIPES - 1)) + 1) * VALUE_INDEX);
        long reads = CELLS.getLongOpaque(DIRECT_READS, cell) + 1L;
        CELLS.putLongOpaque(DIRECT_READS, cell, reads);
        if ((reads & (READS_A_RESTING_WAKE - 1)) == 0 && resting) {
            LockSupport.unpark(ticker);
        }
    }

    /**
     * What a reader that found nothing cached returns for the direct clock's {@code directMillis}: that read while the
     * cell is still DIRECT; else the monotonic floor or the ticker's store where either is later, having raised the
     * demand (see above).
     */
    private static long settleDirect(long directMillis) {
        countRead();
        // Pairs with the ticker's release store of WITHDRAWN, so the floor it set just before is visible below.
        CELLS.loadFence();
        return CELLS.getLongOpaque(PADDED_CELLS, VALUE_OFFSET) == DIRECT ? directMillis : settleWithdrawn(directMillis);
    }

    private static long settleWithdrawn(long directMillis) {
        long settledMillis = Math.max(directMillis, floorMillis);
        if (!demanded) {
            demanded = true;
            LockSupport.unpark(ticker);
        }
        for (int spins = 0; publishing; spins++) {
            // A store is a clock read away, unless the ticker was preempted: then give it the CPU.
            if (spins < SPINS_BEFORE_YIELD) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
        long storedMillis = CELLS.getLongOpaque(PADDED_CELLS, VALUE_OFFSET);
        if (storedMillis == COUNTED) {
            // The ticker counts reads from the moment it stored: the stored value is in countedMillis (see above).
            CELLS.loadFence();
            return countedMillis;
        }
        return storedMillis == DIRECT || storedMillis == WITHDRAWN ? settledMillis : storedMillis;
    }

    /** Where CELLS finds the element of a long[] at this index. */
    private static long cellOffset(int index) {
        return LONGS_BASE_OFFSET + (long) index * Long.BYTES;
    }

    /**
     * The cached time as an {@link Instant}, at the tick's resolution; with nothing cached the direct clock's, at its
     * own resolution, unless the floor or the ticker's store is later (as for {@link #currentTimeMillis()}).
     */
    public static Instant cachedInstantNow() {
        long cachedMillis = CELLS.getLongOpaque(PADDED_CELLS, VALUE_OFFSET);
        if (cachedMillis == COUNTED) {
            cachedMillis = notCached(cachedMillis);
        }
        if (cachedMillis != DIRECT && cachedMillis != WITHDRAWN) {
            Instant published = tickInstant;
            return published != null && published.toEpochMilli() == cachedMillis ? published
                    : Instant.ofEpochMilli(cachedMillis);
        }
        Instant direct = Instant.now();
        long directMillis = direct.toEpochMilli();
        long settledMillis = settleDirect(directMillis);
        return settledMillis == directMillis ? direct : Instant.ofEpochMilli(settledMillis);
    }

    /** In place of {@code Clock.systemUTC()}. */
    public static Clock systemUTC() {
        Clock clock = utc;
        if (clock == null) {
            // A race makes two equal clocks, either of which is right.
            clock = new CachedClock(ZoneOffset.UTC, false);
            utc = clock;
        }
        return clock;
    }

    /** In place of {@code Clock.systemDefaultZone()}. */
    public static Clock systemDefaultZone() {
        return new CachedClock(ZoneId.systemDefault(), false);
    }

    /** In place of {@code Clock.system(zone)}. */
    public static Clock system(ZoneId zone) {
        return new CachedClock(Objects.requireNonNull(zone, "zone"), false);
    }

    /**
     * In place of {@code InstantSource.system()} (Java 17+): this clock of UTC, which reads as an {@code InstantSource}
     * as {@link #systemUTC()} does. Its type is {@code InstantSource} once renamed, or {@code Clock} on a JDK without
     * {@code InstantSource}, where a call of {@code InstantSource.system()} cannot link, agent or not
     * ({@link InstantSourceStandIn}).
     */
    public static InstantSourceStandIn instantSourceSystem() {
        return (InstantSourceStandIn) (Object) systemUTC();
    }

    /** In place of {@code InstantSource.system()} where {@code cachedInstants} applies. */
    public static InstantSourceStandIn cachedInstantsInstantSourceSystem() {
        return (InstantSourceStandIn) (Object) cachedInstantsSystemUTC();
    }

    /** In place of {@code Clock.systemUTC()} where {@code cachedInstants} applies. */
    public static Clock cachedInstantsSystemUTC() {
        Clock clock = utcCachedInstants;
        if (clock == null) {
            clock = new CachedClock(ZoneOffset.UTC, true);
            utcCachedInstants = clock;
        }
        return clock;
    }

    /** In place of {@code Clock.systemDefaultZone()} where {@code cachedInstants} applies. */
    public static Clock cachedInstantsSystemDefaultZone() {
        return new CachedClock(ZoneId.systemDefault(), true);
    }

    /** In place of {@code Clock.system(zone)} where {@code cachedInstants} applies. */
    public static Clock cachedInstantsSystem(ZoneId zone) {
        return new CachedClock(Objects.requireNonNull(zone, "zone"), true);
    }

    /*
     * In place of the no-argument and zone-taking now() of java.time's date-time types where cachedInstants applies:
     * what now(clock) computes from the clock's instant and zone, from the cached instant, with no clock made.
     */

    public static LocalDateTime cachedLocalDateTimeNow() {
        return LocalDateTime.ofInstant(cachedInstantNow(), ZoneId.systemDefault());
    }

    public static LocalDateTime cachedLocalDateTimeNow(ZoneId zone) {
        return LocalDateTime.ofInstant(cachedInstantNow(), Objects.requireNonNull(zone, "zone"));
    }

    public static ZonedDateTime cachedZonedDateTimeNow() {
        return ZonedDateTime.ofInstant(cachedInstantNow(), ZoneId.systemDefault());
    }

    public static ZonedDateTime cachedZonedDateTimeNow(ZoneId zone) {
        return ZonedDateTime.ofInstant(cachedInstantNow(), Objects.requireNonNull(zone, "zone"));
    }

    public static OffsetDateTime cachedOffsetDateTimeNow() {
        return OffsetDateTime.ofInstant(cachedInstantNow(), ZoneId.systemDefault());
    }

    public static OffsetDateTime cachedOffsetDateTimeNow(ZoneId zone) {
        return OffsetDateTime.ofInstant(cachedInstantNow(), Objects.requireNonNull(zone, "zone"));
    }

    public static LocalTime cachedLocalTimeNow() {
        return LocalTime.ofInstant(cachedInstantNow(), ZoneId.systemDefault());
    }

    public static LocalTime cachedLocalTimeNow(ZoneId zone) {
        return LocalTime.ofInstant(cachedInstantNow(), Objects.requireNonNull(zone, "zone"));
    }

    public static OffsetTime cachedOffsetTimeNow() {
        return OffsetTime.ofInstant(cachedInstantNow(), ZoneId.systemDefault());
    }

    public static OffsetTime cachedOffsetTimeNow(ZoneId zone) {
        return OffsetTime.ofInstant(cachedInstantNow(), Objects.requireNonNull(zone, "zone"));
    }

    public static LocalDate cachedLocalDateNow() {
        return LocalDate.ofInstant(cachedInstantNow(), ZoneId.systemDefault());
    }

    public static LocalDate cachedLocalDateNow(ZoneId zone) {
        return LocalDate.ofInstant(cachedInstantNow(), Objects.requireNonNull(zone, "zone"));
    }

    @Override
    public long millis() {
        return currentTimeMillis();
    }

    @Override
    public Instant instant() {
        return cachedInstants ? cachedInstantNow() : Instant.now();
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    @Override
    public Clock withZone(ZoneId newZone) {
        return newZone.equals(zone) ? this : new CachedClock(newZone, cachedInstants);
    }

    /*
     * As the JDK's system clock: equal to any system clock of the same zone, the JDK's included, whose class is known
     * by asking for one; the JDK's own equals knows only its class, so it answers false the other way round.
     */
    @Override
    public boolean equals(Object other) {
        if (other instanceof CachedClock) {
            return zone.equals(((CachedClock) other).zone);
        }
        return other != null && other.getClass() == Clock.systemUTC().getClass()
                && zone.equals(((Clock) other).getZone());
    }

    @Override
    public int hashCode() {
        return zone.hashCode() + 1;
    }

    @Override
    public String toString() {
        return "SystemClock[" + zone + "]";
    }

    /** A stream holds the JDK's system clock, which needs no agent to read back. */
    private Object writeReplace() {
        return Clock.system(zone);
    }

    /*
     * The value sits in the middle of a long[] so that 128 bytes of never-written cells separate it from anything
     * else on the heap: two cache lines, as the adjacent-line prefetcher pairs them.
     */
    private static final int VALUE_INDEX = 16;
    private static final int PADDED_LENGTH = 2 * VALUE_INDEX + 1;
    private static final int SPINS_BEFORE_YIELD = 100;
}
