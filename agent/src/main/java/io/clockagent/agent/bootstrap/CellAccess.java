package io.clockagent.agent.bootstrap;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * What the cached clock compiles against for its opaque reads and writes of {@code long[]} cells: the methods of
 * {@code jdk.internal.misc.Unsafe} it calls, with their signatures, which {@code --release 11} does not let it name.
 * In the class file the agent defines in {@code java.lang}, the clock's every mention of this class is renamed to
 * {@code jdk.internal.misc.Unsafe} ({@code BootClock}), which code of {@code java.base} may call: that is the clock
 * that runs. Only the unit tests, which load the clock under its own name, outside {@code java.base}, run this class;
 * it gives them the same accesses through a {@code VarHandle}, which makes them through {@code Unsafe} underneath.
 *
 * <p>Why not a {@code VarHandle} in the clock itself: the clock is often first read while the service starts, before
 * the JIT has compiled anything, and there a {@code VarHandle}'s first use costs the reading thread milliseconds (its
 * class's initialization and the linking of each access mode) and each interpreted read more than through
 * {@code Unsafe} (see benchmarks/README.md#the-first-reads-of-a-start). Compiled, both are the same single load or
 * store.
 *
 * <p>These are {@code Unsafe}'s signatures on JDK 11 to 23; JDK 24 made {@code arrayBaseOffset} return a
 * {@code long}, which {@link CellAccessSince24} stands in for.
 */
public final class CellAccess {

    private static final CellAccess UNSAFE = new CellAccess();
    private static final VarHandle CELLS = MethodHandles.arrayElementVarHandle(long[].class);
    /** This stand-in's offsets are indices scaled by a {@code long}'s size, from 0. */
    private static final int LONG_SHIFT = 3;

    private CellAccess() {
    }

    public static CellAccess getUnsafe() {
        return UNSAFE;
    }

    public int arrayBaseOffset(Class<?> arrayClass) {
        return 0;
    }

    public long getLongOpaque(Object cells, long offset) {
        return (long) CELLS.getOpaque((long[]) cells, (int) (offset >>> LONG_SHIFT));
    }

    public void putLongOpaque(Object cells, long offset, long value) {
        CELLS.setOpaque((long[]) cells, (int) (offset >>> LONG_SHIFT), value);
    }

    public void loadFence() {
        VarHandle.acquireFence();
    }
}
