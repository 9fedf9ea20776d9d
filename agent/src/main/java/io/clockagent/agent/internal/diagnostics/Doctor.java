package io.clockagent.agent.internal.diagnostics;

import io.clockagent.agent.bootstrap.CachedClock;
import io.clockagent.agent.internal.caching.CachePolicy;
import io.clockagent.agent.internal.caching.CachingDecision;
import io.clockagent.agent.internal.clock.CachedClockWriter;
import io.clockagent.agent.internal.clock.Ticker;
import io.clockagent.agent.internal.clock.WaitStrategy;
import io.clockagent.agent.internal.options.AgentOptions;
import java.io.PrintStream;
import java.lang.invoke.MethodHandles;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Clock;
import java.util.Locale;

/**
 * {@code java -jar clock-agent.jar doctor}: tells whether caching pays on this host. It reads the kernel clocksource,
 * times the direct clock, {@code nanoTime()} and a cached read in this JVM, measures what the ticker costs, and
 * works out the read rate above which the agent saves more CPU than its ticker spends. Takes a few seconds.
 */
public final class Doctor {

    private static final long TICKER_SAMPLE_NANOS = 2_000_000_000L;
    /** A vDSO read costs tens of nanoseconds; a system call or an hpet/acpi_pm read costs hundreds. */
    private static final double SLOW_CALL_NANOS = 100.0;

    private final PrintStream out;

    public Doctor(PrintStream out) {
        this.out = out;
    }

    static final class CachedReads implements ClockCost.ClockReads {
        @Override
        public long readMany(int reads) {
            long sum = 0L;
            for (int i = 0; i < reads; i++) {
                sum += CachedClock.currentTimeMillis();
            }
            return sum;
        }
    }

    /** Runs the checks and prints the findings. */
    public void run() throws ReflectiveOperationException, InterruptedException {
        String clocksource = HostClocksource.describe();
        String available = HostClocksource.available();
        out.println("clock-agent doctor: Java " + Runtime.version() + ", " + System.getProperty("os.name") + " "
                + System.getProperty("os.arch") + ", " + Runtime.getRuntime().availableProcessors() + " CPUs");
        out.println("clocksource:            " + clocksource + (available == null ? "" : " (available: " + available
                + ")"));

        double directNanos = ClockCost.directCallNanos();
        double directTwoThreadsNanos = concurrentDirectNanos();
        double nanoTimeNanos = ClockCost.nanosPerCall(new ClockCost.DirectNanos());
        out.println(line("currentTimeMillis()", directNanos, "1 thread"));
        out.println(line("currentTimeMillis()", directTwoThreadsNanos, "each of 2 threads at once"
                + (directTwoThreadsNanos > 1.6 * directNanos ? ": calls are serialized machine-wide" : "")));
        out.println(line("nanoTime()", nanoTimeNanos, "1 thread"));

        CachedClockWriter clock = new CachedClockWriter(CachedClock.class,
                MethodHandles.privateLookupIn(CachedClock.class, MethodHandles.lookup()));
        Ticker ticker = Ticker.start(clock, Clock.systemUTC(), AgentOptions.DEFAULT_TICK_NANOS, WaitStrategy.PARK,
                false, CachePolicy.ALWAYS);
        try {
            // The ticker starts at the first read.
            while (CachedClock.currentTimeMillis() != 0L && clock.published() == 0L) {
                Thread.onSpinWait();
            }
            double cachedNanos = ClockCost.nanosPerCall(new CachedReads());
            double tickerCpuMillisPerSecond = tickerCpuMillisPerSecond(ticker);
            out.println(line("cached read", cachedNanos, "1 thread, tick=1ms"));
            out.println(String.format(Locale.ROOT, "%-24s%8.2f ms CPU per second (%.2f %% of a core), %s, %s",
                    "ticker cost:", tickerCpuMillisPerSecond, tickerCpuMillisPerSecond / 10.0,
                    ticker.slowWallReads() ? "one wall-clock read a tick (reads are slow)"
                            : "three wall-clock reads a tick (reads are fast)",
                    ticker.timerSlackLowered() ? "timer slack lowered to 1 ns" : "default timer slack"));
            verdict(clocksource, directNanos, directTwoThreadsNanos, cachedNanos, tickerCpuMillisPerSecond);
        } finally {
            ticker.close();
        }
    }

    /** Prints the break-even read rate and the verdict from the measurements; package-private for tests. */
    void verdict(String clocksource, double directNanos, double directTwoThreadsNanos, double cachedNanos,
            double tickerCpuMillisPerSecond) {
        double savedNanosPerRead = Math.max(directNanos, directTwoThreadsNanos) - cachedNanos;
        if (savedNanosPerRead <= 0.0) {
            out.println("verdict: a cached read is no cheaper than a direct one here; the agent does not pay.");
            return;
        }
        long breakEvenReadsPerSecond = Math.round(tickerCpuMillisPerSecond * 1e6 / savedNanosPerRead);
        out.println(String.format(Locale.ROOT, "break-even:             %,d reads per second (each saves %.1f ns;"
                + " the ticker spends %.2f ms per second)", breakEvenReadsPerSecond, savedNanosPerRead,
                tickerCpuMillisPerSecond));
        out.println(String.format(Locale.ROOT, "%-24scaches from about %,d reads per second (%.1fx break-even), and"
                + " reads the direct clock again below break-even", "cache=auto (default):",
                Math.round(CachingDecision.START_MARGIN * breakEvenReadsPerSecond), CachingDecision.START_MARGIN));
        // Costs are CPU time, so two threads at once cost more each only where the clock itself serializes them.
        boolean slowClock = directNanos >= SLOW_CALL_NANOS || directTwoThreadsNanos > 1.6 * directNanos;
        if (slowClock) {
            out.println(String.format(Locale.ROOT, "verdict: PAYS. The direct clock is slow here (%.0f ns a call, %s):"
                    + " every call is a system call or a device read. Any service reading it more than about %,d"
                    + " times a second gains, and busy ones gain a lot.", directNanos, clocksource,
                    breakEvenReadsPerSecond));
            // Where every read costs this much, the one a log event makes is worth taking too.
            out.println("java.time: a logging framework's event timestamps (Instant.now(), Clock.systemUTC().instant())"
                    + " stay direct by default, as the cache would change their resolution; name its packages to"
                    + " take them at the tick's: cachedInstants=ch.qos.logback:org.apache.logging.log4j");
        } else {
            out.println(String.format(Locale.ROOT, "verdict: PAYS ONLY WHEN BUSY. The direct clock is fast here"
                    + " (%.0f ns a call, %s: a user-space vDSO read). The agent pays in services that read it more"
                    + " than about %,d times a second, and idles at no cost when they read it less.", directNanos,
                    clocksource, breakEvenReadsPerSecond));
        }
    }

    private static String line(String what, double nanos, String how) {
        return String.format(Locale.ROOT, "%-24s%8.2f ns per call (%s)", what + ":", nanos, how);
    }

    /** Per-call cost with two threads calling at once: on hpet and Xen hosts the calls queue machine-wide. */
    private static double concurrentDirectNanos() throws InterruptedException {
        double[] nanos = new double[2];
        Thread[] threads = new Thread[2];
        for (int i = 0; i < threads.length; i++) {
            int slot = i;
            threads[i] = new Thread(() -> nanos[slot] = ClockCost.directCallNanos(), "clock-agent-doctor-" + i);
            threads[i].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return (nanos[0] + nanos[1]) / 2.0;
    }

    /** The ticker's CPU time while a reader keeps the clock busy, so that it never idles during the sample. */
    private static double tickerCpuMillisPerSecond(Ticker ticker) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long tickerId = ticker.threadId();
        long cpuBefore = threads.getThreadCpuTime(tickerId);
        long wallBefore = System.nanoTime();
        long sum = 0L;
        while (System.nanoTime() - wallBefore < TICKER_SAMPLE_NANOS) {
            sum += CachedClock.currentTimeMillis();
            Thread.onSpinWait();
        }
        long cpuNanos = threads.getThreadCpuTime(tickerId) - cpuBefore;
        long wallNanos = System.nanoTime() - wallBefore;
        return sum == 0L ? Double.NaN : cpuNanos / 1e6 / (wallNanos / 1e9);
    }
}
