package io.clockagent.agent.bootstrap;

/**
 * {@code jdk.internal.misc.Unsafe.arrayBaseOffset} as JDK 24 and later declare it, returning a {@code long}: renamed
 * to {@code jdk.internal.misc.Unsafe} like {@link CellAccess}, which has the {@code int} of JDK 11 to 23. The clock
 * calls the one its JDK has; the other's reference is never resolved.
 */
public final class CellAccessSince24 {

    /** The first JDK whose {@code arrayBaseOffset} returns a {@code long}. */
    static final int FEATURE = 24;

    private static final CellAccessSince24 UNSAFE = new CellAccessSince24();

    private CellAccessSince24() {
    }

    public static CellAccessSince24 getUnsafe() {
        return UNSAFE;
    }

    public long arrayBaseOffset(Class<?> arrayClass) {
        return 0L;
    }
}
