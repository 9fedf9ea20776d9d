package io.clockagent.agent.internal.clock;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Instant;

/**
 * The write side of the cached clock class, reached through a private lookup that only the agent holds. It is
 * handed to the ticker alone; the memory-ordering contract is documented in the clock class it writes. Not final
 * only so that tests can inject failures into the ticker.
 */
public class CachedClockWriter {

    private final Class<?> clockClass;
    private final MethodHandles.Lookup privateLookup;
    /*
     * The ticker thread looks these up in link(), not the thread that defines the clock: that is often the thread
     * that loads the service's main class, which waits for the definition, and the first VarHandles of a JVM cost it
     * milliseconds. paddedCells is volatile for whoever shows the clock (the MBean) before the ticker has linked, and
     * written after cell, valueIndex, direct and withdrawn, which it publishes.
     */
    private VarHandle cell;
    private volatile long[] paddedCells;
    private int valueIndex;
    private volatile VarHandle ticker;
    private VarHandle demanded;
    private VarHandle floorMillis;
    private VarHandle publishing;
    private VarHandle resting;
    private VarHandle tickInstant;
    private VarHandle countedMillis;
    private long[] directReadCells;
    /*
     * The clock's cell values for "nothing cached": direct, as the clock was defined, for readers that check nothing
     * but the cell; withdrawn, for readers that also raise the demand and take the floor.
     */
    private long direct;
    private long withdrawn;
    /** The cell's value for "cached, and each read counted", and whether the cell holds it; the ticker's alone. */
    private long counted;
    private boolean counting;

    public CachedClockWriter(Class<?> clockClass, MethodHandles.Lookup privateLookup) {
        this.clockClass = clockClass;
        this.privateLookup = privateLookup;
    }

    /**
     * Looks up the handles and runs every access once, on the ticker thread before its first tick. A VarHandle call
     * links on first use, which allocates; after this the ticker's failure path, {@link #abandon}, runs without
     * allocating, so it works even when the heap is full.
     */
    void link() throws ReflectiveOperationException {
        cell = MethodHandles.arrayElementVarHandle(long[].class);
        ticker = privateLookup.findStaticVarHandle(clockClass, "ticker", Thread.class);
        long[] cells = (long[]) privateLookup.findStaticVarHandle(clockClass, "PADDED_CELLS", long[].class).get();
        // The clock keeps its value in the middle of the padded array.
        valueIndex = cells.length / 2;
        direct = (long) privateLookup.findStaticVarHandle(clockClass, "DIRECT", long.class).get();
        withdrawn = (long) privateLookup.findStaticVarHandle(clockClass, "WITHDRAWN", long.class).get();
        counted = (long) privateLookup.findStaticVarHandle(clockClass, "COUNTED", long.class).get();
        countedMillis = privateLookup.findStaticVarHandle(clockClass, "countedMillis", long.class);
        paddedCells = cells;
        demanded = privateLookup.findStaticVarHandle(clockClass, "demanded", boolean.class);
        floorMillis = privateLookup.findStaticVarHandle(clockClass, "floorMillis", long.class);
        publishing = privateLookup.findStaticVarHandle(clockClass, "publishing", boolean.class);
        resting = privateLookup.findStaticVarHandle(clockClass, "resting", boolean.class);
        tickInstant = privateLookup.findStaticVarHandle(clockClass, "tickInstant", Instant.class);
        directReadCells = (long[]) privateLookup.findStaticVarHandle(clockClass, "DIRECT_READS", long[].class).get();
        directReads();
        published();
        demanded();
        setResting(false);
        beginPublish();
        withdraw(Long.MIN_VALUE);
        withdrawUntilDemand(Long.MIN_VALUE);
        abandon(Long.MIN_VALUE);
    }

    /**
     * Called before the ticker reads the wall clock for {@link #publish}: readers that go direct until the store
     * wait for it rather than return a time later than the one stored (see the clock class). Readers of a cell
     * withdrawn without a floor check nothing but the cell, so it is withdrawn for them to check the rest first.
     */
    void beginPublish() {
        if ((long) cell.getOpaque(paddedCells, valueIndex) == direct) {
            cell.setVolatile(paddedCells, valueIndex, withdrawn);
        }
        publishing.setVolatile(true);
    }

    /**
     * Stores the tick's Instant, then its millis: the one allocation of a tick, so that reads of a cached instant
     * make none. Out of memory here leaves the cell as it was, for the ticker's failure path to withdraw.
     */
    void publish(long millis) {
        tickInstant.setRelease(Instant.ofEpochMilli(millis));
        if (counting) {
            countedMillis.setRelease(millis);
        } else {
            cell.setOpaque(paddedCells, valueIndex, millis);
        }
        publishing.setRelease(false);
    }

    /**
     * Keeps the value published, and has each reader count its read, as a direct one is counted, until the value is
     * withdrawn: for a measure of what the counting alone costs the service.
     *
     * @return false, changing nothing, where no value is published or its reads are counted already
     */
    boolean countReads() {
        long value = published();
        if (counting || value == 0L) {
            return false;
        }
        countedMillis.setVolatile(value);
        cell.setRelease(paddedCells, valueIndex, counted);
        counting = true;
        return true;
    }

    /** The value readers find, or 0 where nothing is cached. */
    public long published() {
        long[] cells = paddedCells;
        if (cells == null) {
            return 0L;
        }
        long value = (long) cell.getOpaque(cells, valueIndex);
        if (value == counted) {
            return (long) countedMillis.getOpaque();
        }
        return value == direct || value == withdrawn ? 0L : value;
    }

    /**
     * Sends readers to the direct clock. With a floor (monotonic mode) the direct path never returns less than it;
     * {@link Long#MIN_VALUE} means no floor, and then readers take the direct clock with nothing to check but the
     * cell, as before the ticker linked.
     */
    void withdraw(long floor) {
        counting = false;
        floorMillis.setVolatile(floor);
        cell.setRelease(paddedCells, valueIndex, floor == Long.MIN_VALUE ? direct : withdrawn);
    }

    /** Sends readers to the direct clock, as {@link #withdraw}, and has the next of them raise the demand. */
    void withdrawUntilDemand(long floor) {
        counting = false;
        floorMillis.setVolatile(floor);
        cell.setRelease(paddedCells, valueIndex, withdrawn);
    }

    /**
     * Withdraws after a failure: the cell first, so that readers reach the direct clock even if what follows fails.
     */
    void abandon(long floor) {
        cell.setRelease(paddedCells, valueIndex, withdrawn);
        counting = false;
        publishing.setVolatile(false);
        floorMillis.setVolatile(floor);
    }

    /** About how many reads have taken the direct clock so far: see the clock class. */
    long directReads() {
        long reads = 0;
        for (int index = 0; index < directReadCells.length; index++) {
            reads += (long) cell.getOpaque(directReadCells, index);
        }
        return reads;
    }

    /** Whether a reader found no cached value since the last {@link #lowerDemand()}. */
    boolean demanded() {
        return (boolean) demanded.getVolatile();
    }

    void lowerDemand() {
        demanded.setVolatile(false);
    }

    /** Whether the ticker rests, for readers that have gone direct many times to wake it: see the clock class. */
    void setResting(boolean tickerRests) {
        resting.setVolatile(tickerRests);
    }

    /** The thread that readers wake when they find the clock withdrawn; null once it has stopped. */
    void wakeOnDemand(Thread tickerThread) {
        VarHandle linked = ticker;
        // Not linked: no reader was ever given a thread to wake.
        if (linked != null) {
            linked.setVolatile(tickerThread);
        }
    }
}
