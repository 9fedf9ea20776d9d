package io.clockagent.it.jcstress;

import io.clockagent.agent.bootstrap.CachedClock;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The agent's own write side of the un-renamed cached clock, {@code CachedClockWriter}, which its ticker uses: the
 * same stores, in the same access modes, on the same padded cell that {@link CachedClock#currentTimeMillis()} reads.
 * Reached through private lookups, as the agent's unit tests reach it; both classes live in the agent jar on this
 * module's class path. One thread at a time may write, as one ticker does.
 */
final class CachedClockWriteSide {

    private static final String WRITER_CLASS = "io.clockagent.agent.internal.clock.CachedClockWriter";
    /** Bound to the one writer and held in static finals, so the JIT inlines each call like a direct one. */
    private static final MethodHandle PUBLISH;
    private static final MethodHandle WITHDRAW;

    static {
        try {
            Class<?> writerClass = Class.forName(WRITER_CLASS);
            MethodHandles.Lookup writerLookup = MethodHandles.privateLookupIn(writerClass, MethodHandles.lookup());
            Object writer = writerLookup.findConstructor(writerClass,
                            MethodType.methodType(void.class, Class.class, MethodHandles.Lookup.class))
                    .invoke(CachedClock.class, MethodHandles.privateLookupIn(CachedClock.class, MethodHandles.lookup()));
            // As the ticker does before its first tick: looks up the handles that withdraw uses.
            writerLookup.findVirtual(writerClass, "link", MethodType.methodType(void.class)).invoke(writer);
            MethodType takingMillis = MethodType.methodType(void.class, long.class);
            PUBLISH = writerLookup.findVirtual(writerClass, "publish", takingMillis).bindTo(writer);
            WITHDRAW = writerLookup.findVirtual(writerClass, "withdraw", takingMillis).bindTo(writer);
        } catch (Throwable unreachable) {
            throw new ExceptionInInitializerError(unreachable);
        }
    }

    private CachedClockWriteSide() {
    }

    /** What the ticker does on each tick. */
    static void publish(long millis) {
        try {
            PUBLISH.invokeExact(millis);
        } catch (Throwable impossible) {
            throw new AssertionError(impossible);
        }
    }

    /**
     * What the ticker does when it goes idle or stops: readers go to the direct clock, never below the floor.
     *
     * @param floorMillis {@link Long#MIN_VALUE} for no floor; with {@code monotonic=true}, the last published value
     */
    static void withdraw(long floorMillis) {
        try {
            WITHDRAW.invokeExact(floorMillis);
        } catch (Throwable impossible) {
            throw new AssertionError(impossible);
        }
    }
}
