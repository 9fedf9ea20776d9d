package io.clockagent.stacks.console;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Tells, as a user could, whether a clock read is served from the agent's cache: by what it costs beside a direct
 * call of {@code System.currentTimeMillis()} made through a method handle looked up by name, which the agent never
 * rewrites. A direct call costs 20-40 ns on a {@code tsc} host and far more on others; a cached read costs about
 * as much as the loop around it. Rounds of the reads under test and of the direct call alternate, and each keeps its
 * fastest round, which other work on the machine cannot make faster; several reads share the warm-up and the rounds,
 * and so their time. This class reads no clock through {@code System.currentTimeMillis()} itself.
 */
public final class ClockCost {

    /**
     * First the read under test runs flat out for this long: the agent's default, cache=auto, caches only while reads
     * come fast enough to pay for its ticker, and decides that within a quarter of a second.
     */
    private static final long WARMUP_NANOS = 1_000_000_000L;
    private static final int ROUNDS = 20;
    /**
     * And the rounds go on for at least this long: on a busy machine the JIT may not yet have compiled the read when
     * the warm-up ends (a CI run once measured a cached read at half a direct call through all twenty rounds, 60 ms),
     * and a later round keeps the fastest.
     */
    private static final long MIN_ROUNDS_NANOS = 1_000_000_000L;
    private static final int READS_PER_ROUND = 100_000;
    private static final MethodHandle DIRECT = directCall();
    /** Where the reads go, so that they cannot be optimised away. */
    private static volatile long sink;

    private ClockCost() {
    }

    /**
     * @param reads the reads under test, such as {@code System::currentTimeMillis} written in the caller's class
     * @return for each read, in order, {@code read=R direct=D}: the nanoseconds per read of it and of the direct call,
     *     each in its fastest round
     */
    public static List<String> measureEach(List<LongSupplier> reads) {
        long[] fastestReadNanos = new long[reads.size()];
        Arrays.fill(fastestReadNanos, Long.MAX_VALUE);
        long fastestDirectNanos = Long.MAX_VALUE;
        long sum = 0;
        long warmupStartNanos = System.nanoTime();
        while (System.nanoTime() - warmupStartNanos < WARMUP_NANOS) {
            for (LongSupplier read : reads) {
                sum += read.getAsLong();
            }
        }
        long roundsStartNanos = System.nanoTime();
        for (int round = 0; round < ROUNDS || System.nanoTime() - roundsStartNanos < MIN_ROUNDS_NANOS; round++) {
            for (int r = 0; r < fastestReadNanos.length; r++) {
                LongSupplier read = reads.get(r);
                long start = System.nanoTime();
                for (int i = 0; i < READS_PER_ROUND; i++) {
                    sum += read.getAsLong();
                }
                fastestReadNanos[r] = Math.min(fastestReadNanos[r], System.nanoTime() - start);
            }
            long start = System.nanoTime();
            for (int i = 0; i < READS_PER_ROUND; i++) {
                sum += direct();
            }
            fastestDirectNanos = Math.min(fastestDirectNanos, System.nanoTime() - start);
        }
        sink = sum;
        List<String> measured = new ArrayList<>();
        for (long readNanos : fastestReadNanos) {
            measured.add(String.format(Locale.ROOT, "read=%.2f direct=%.2f", (double) readNanos / READS_PER_ROUND,
                    (double) fastestDirectNanos / READS_PER_ROUND));
        }
        return measured;
    }

    private static long direct() {
        try {
            return (long) DIRECT.invokeExact();
        } catch (Throwable impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    private static MethodHandle directCall() {
        try {
            return MethodHandles.publicLookup().findStatic(System.class, "currentTimeMillis",
                    MethodType.methodType(long.class));
        } catch (ReflectiveOperationException impossible) {
            throw new ExceptionInInitializerError(impossible);
        }
    }
}
