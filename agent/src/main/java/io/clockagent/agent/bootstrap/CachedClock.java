package io.clockagent.agent.bootstrap;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The clock that rewritten call sites read instead of {@code System.currentTimeMillis()}; any thread may call it.
 *
 * <p>At startup the agent defines a copy of this class named {@code java.lang.ClockAgentCachedClock} in the boot
 * loader, so that every class loader and module resolves it, and hands the write side to its ticker alone. The class
 * therefore imports {@code java.*} only, refers to itself by no descriptor, and offers application code nothing but
 * the read.
 */
public final class CachedClock {

    /*
     * Who writes, who reads. The ticker thread alone stores the cached millis, once per tick, with setOpaque.
     * Application threads load it with getOpaque. Opaque is the weakest mode that still works: the value is a
     * self-contained long that orders no other memory, so acquire/release would buy nothing, but a plain field would
     * let the JIT hoist the load out of `while (currentTimeMillis() < deadline) {}` and spin forever. Opaque also keeps
     * the 64-bit access atomic. On x86 both sides compile to a plain mov.
     *
     * 0 means "no cached value": before the first tick, while the ticker idles, and after it stopped or died. Readers
     * then take the direct clock and raise the demand flag, which wakes an idle ticker. The flag is written only
     * when it is down, so a busy reader writes nothing shared; the ticker lowers it at most once per idle probe.
     * With monotonic=true the ticker leaves its last value in floorMillis whenever it withdraws, so the direct path
     * never goes behind what readers already saw.
     *
     * The way back from the direct clock must not step back either. The ticker reads the wall clock and then stores
     * it; a reader that went direct in between, or while the ticker was preempted there, got a later time than the
     * one about to be stored. So the ticker raises `publishing` before it reads the wall clock and lowers it after
     * the store, and a direct read is returned only if, after it, `publishing` is seen down and the cell still 0:
     * then any value stored later was read from the wall clock after this read. Seen up, the reader waits for the
     * store, which takes the ticker a clock read; seen down with a value stored, it returns that value.
     */
    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(long[].class);
    private static final long[] PADDED_CELLS = new long[CachedClock.PADDED_LENGTH];
    /*
     * The reads that took the direct clock, counted for cache=auto's estimate of the read rate: the cached path counts
     * nothing. A cell per stripe, a stripe per thread by its id, cells as far apart as the value's padding, so that
     * threads rarely write one line: ids are handed out in sequence, so eight threads created one after another never
     * share a stripe, and an id costs a field load where an identity hash costs a header test. An increment is a plain
     * read and write, which may lose a count when two threads of one stripe race: the ticker needs an estimate, never
     * a tally.
     */
    private static final int STRIPES = 8;
    private static final long[] DIRECT_READS = new long[(STRIPES + 1) * CachedClock.VALUE_INDEX];

    private static volatile boolean demanded;
    private static volatile Thread ticker;
    private static volatile long floorMillis = Long.MIN_VALUE;
    private static volatile boolean publishing;

    private CachedClock() {
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
        long cachedMillis = (long) CELL.getOpaque(PADDED_CELLS, VALUE_INDEX);
        return cachedMillis != 0L ? cachedMillis : directAndRaiseDemand();
    }

    private static long directAndRaiseDemand() {
        // Pairs with the ticker's release store of 0, so the floor it set just before is visible here.
        VarHandle.acquireFence();
        long directMillis = Math.max(System.currentTimeMillis(), floorMillis);
        int cell = (((int) Thread.currentThread().getId() & (STRIPES - 1)) + 1) * VALUE_INDEX;
        CELL.setOpaque(DIRECT_READS, cell, (long) CELL.getOpaque(DIRECT_READS, cell) + 1L);
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
        long storedMillis = (long) CELL.getOpaque(PADDED_CELLS, VALUE_INDEX);
        return storedMillis != 0L ? storedMillis : directMillis;
    }

    /*
     * The value sits in the middle of a long[] so that 128 bytes of never-written cells separate it from anything
     * else on the heap: two cache lines, as the adjacent-line prefetcher pairs them.
     */
    private static final int VALUE_INDEX = 16;
    private static final int PADDED_LENGTH = 2 * VALUE_INDEX + 1;
    private static final int SPINS_BEFORE_YIELD = 100;
}
