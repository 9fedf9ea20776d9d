package io.clockagent.bench.peers;

import io.clockagent.bench.peers.rewritten.RewrittenClock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.CachedEpochClock;
import org.apache.logging.log4j.core.util.CachedClock;
import org.apache.logging.log4j.core.util.CoarseCachedClock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of one read of each cached clock people use, next to clock-agent's rewritten read and the direct call.
 * Run with {@code -jvmArgsAppend -javaagent:clock-agent.jar=include=io.clockagent.bench.peers.rewritten}: every
 * method then runs in a JVM with the agent, and only {@link #clockAgent()} reads through it. Stateless apart from
 * the peers' clocks; JMH may run it from any number of threads.
 *
 * <p>Each peer sits in a holder class, so its clock and its updater thread start only in the forks that measure it
 * (JMH forks one JVM per benchmark method): no fork pays for another peer's updater.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 4, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(2)
public class PeerClockBenchmark {

    private static final long UPDATE_PERIOD_NANOS = 1_000_000L;

    /** {@code System.currentTimeMillis()} rewritten by clock-agent into a read of its cached clock. */
    @Benchmark
    public long clockAgent() {
        return RewrittenClock.millis();
    }

    /** The direct call: this class is outside the agent's include. */
    @Benchmark
    public long direct() {
        return System.currentTimeMillis();
    }

    /** The {@code SystemClock} snippet: {@code AtomicLong.get()}, written every 1 ms by a scheduled executor. */
    @Benchmark
    public long systemClock() {
        return SystemClockHolder.NOW.get();
    }

    /** Log4j2's {@code CoarseCachedClock}: a volatile read, written every 1 ms by its own thread. */
    @Benchmark
    public long log4jCoarseCachedClock() {
        return Log4jCoarseHolder.CLOCK.currentTimeMillis();
    }

    /** Log4j2's {@code CachedClock}: a volatile read plus a counter it increments on every read. */
    @Benchmark
    public long log4jCachedClock() {
        return Log4jCachedHolder.CLOCK.currentTimeMillis();
    }

    /** Agrona's {@code CachedEpochClock}, updated every 1 ms by a park loop of ours (Agrona leaves that to its user). */
    @Benchmark
    public long agronaCachedEpochClock() {
        return AgronaHolder.CLOCK.time();
    }

    private static final class SystemClockHolder {
        static final AtomicLong NOW = new AtomicLong(System.currentTimeMillis());

        static {
            ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(task -> {
                Thread thread = new Thread(task, "system-clock");
                thread.setDaemon(true);
                return thread;
            });
            executor.scheduleAtFixedRate(() -> NOW.set(System.currentTimeMillis()), 1, 1, TimeUnit.MILLISECONDS);
        }
    }

    private static final class Log4jCoarseHolder {
        static final CoarseCachedClock CLOCK = CoarseCachedClock.instance();
    }

    private static final class Log4jCachedHolder {
        static final CachedClock CLOCK = CachedClock.instance();
    }

    private static final class AgronaHolder {
        static final CachedEpochClock CLOCK = new CachedEpochClock();

        static {
            CLOCK.update(System.currentTimeMillis());
            Thread updater = new Thread(() -> {
                while (true) {
                    CLOCK.update(System.currentTimeMillis());
                    LockSupport.parkNanos(UPDATE_PERIOD_NANOS);
                }
            }, "agrona-clock-updater");
            updater.setDaemon(true);
            updater.start();
        }
    }
}
