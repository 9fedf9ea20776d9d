package io.clockagent.agent.internal.clock;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The write side of the cached clock class, reached through a private lookup that only the agent holds. It is
 * handed to the ticker alone; the memory-ordering contract is documented in the clock class it writes. Not final
 * only so that tests can inject failures into the ticker.
 */
public class CachedClockWriter {

    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(long[].class);

    private final Class<?> clockClass;
    private final MethodHandles.Lookup privateLookup;
    private final long[] paddedCells;
    private final int valueIndex;
    private final VarHandle ticker;
    /* Only the ticker thread uses these, from link() on: looked up there, they cost a JVM that never ticks nothing. */
    private VarHandle demanded;
    private VarHandle floorMillis;
    private long[] directReadCells;

    public CachedClockWriter(Class<?> clockClass, MethodHandles.Lookup privateLookup)
            throws ReflectiveOperationException {
        this.clockClass = clockClass;
        this.privateLookup = privateLookup;
        this.paddedCells = (long[]) privateLookup.findStaticVarHandle(clockClass, "PADDED_CELLS", long[].class).get();
        // The clock keeps its value in the middle of the padded array.
        this.valueIndex = paddedCells.length / 2;
        this.ticker = privateLookup.findStaticVarHandle(clockClass, "ticker", Thread.class);
    }

    /**
     * Looks up the ticker's handles and runs every access once, on the ticker thread before its first tick. A
     * VarHandle call links on first use, which allocates; after this the ticker's failure path, {@link #abandon},
     * runs without allocating, so it works even when the heap is full.
     */
    void link() throws ReflectiveOperationException {
        demanded = privateLookup.findStaticVarHandle(clockClass, "demanded", boolean.class);
        floorMillis = privateLookup.findStaticVarHandle(clockClass, "floorMillis", long.class);
        directReadCells = (long[]) privateLookup.findStaticVarHandle(clockClass, "DIRECT_READS", long[].class).get();
        directReads();
        published();
        demanded();
        withdraw(Long.MIN_VALUE);
        abandon(Long.MIN_VALUE);
    }

    void publish(long millis) {
        CELL.setOpaque(paddedCells, valueIndex, millis);
    }

    public long published() {
        return (long) CELL.getOpaque(paddedCells, valueIndex);
    }

    /**
     * Sends readers to the direct clock. With a floor (monotonic mode) the direct path never returns less than it;
     * {@link Long#MIN_VALUE} means no floor.
     */
    void withdraw(long floor) {
        floorMillis.setVolatile(floor);
        CELL.setRelease(paddedCells, valueIndex, 0L);
    }

    /**
     * Withdraws after a failure: the cell first, so that readers reach the direct clock even if what follows fails.
     */
    void abandon(long floor) {
        CELL.setRelease(paddedCells, valueIndex, 0L);
        floorMillis.setVolatile(floor);
    }

    /** About how many reads have taken the direct clock so far: see the clock class. */
    long directReads() {
        long reads = 0;
        for (int cell = 0; cell < directReadCells.length; cell++) {
            reads += (long) CELL.getOpaque(directReadCells, cell);
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

    /** The thread that readers wake when they find the clock withdrawn; null once it has stopped. */
    void wakeOnDemand(Thread tickerThread) {
        ticker.setVolatile(tickerThread);
    }
}
