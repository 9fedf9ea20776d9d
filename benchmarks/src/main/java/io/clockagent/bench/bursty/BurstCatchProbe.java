package io.clockagent.bench.bursty;

import io.clockagent.bench.bursty.rewritten.RewrittenLoop;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * How soon {@code cache=auto} caches a burst, run in a JVM of its own by
 * {@code io.clockagent.bench.BurstCatchComparison}: reads the clock through a rewritten call at about 2,000 reads a
 * second, far below break-even, for a given time, then flat out on one thread, and prints how long after the burst's
 * first read the agent's MBean first says {@code Caching}, polled every millisecond. Prints one line
 * {@code burst-result caughtMillis=... cachingBeforeBurst=...}; caughtMillis is -1 where the agent did not cache within
 * {@value #GIVE_UP_SECONDS} s.
 *
 * <p>Usage: {@code BurstCatchProbe --slow-millis MS}.
 */
public final class BurstCatchProbe {

    public static final String RESULT_PREFIX = "burst-result ";
    static final long SLOW_READ_INTERVAL_NANOS = 500_000L;
    public static final int GIVE_UP_SECONDS = 10;
    private static final String AGENT_MBEAN = "io.clockagent:type=ClockAgent";
    private static final int READS_A_BATCH = 10_000;

    private static volatile boolean burstOver;
    /** Written by the burst so that the JIT cannot drop its reads. */
    private static volatile long sink;

    private BurstCatchProbe() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2 || !args[0].equals("--slow-millis")) {
            throw new IllegalArgumentException("usage: --slow-millis MS");
        }
        long slowNanos = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[1]));
        // The first read loads the rewritten class, which starts the agent's ticker; the MBean follows the server.
        sink = RewrittenLoop.read(1);
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName agent = new ObjectName(AGENT_MBEAN);

        long slowStartNanos = System.nanoTime();
        while (System.nanoTime() - slowStartNanos < slowNanos) {
            sink += RewrittenLoop.read(1);
            LockSupport.parkNanos(SLOW_READ_INTERVAL_NANOS);
        }
        if (!server.isRegistered(agent)) {
            throw new IllegalStateException("no " + AGENT_MBEAN + " registered after " + args[1] + " ms");
        }
        boolean cachingBeforeBurst = caching(server, agent);

        long burstStartNanos = System.nanoTime();
        Thread burst = new Thread(() -> {
            long sum = 0;
            while (!burstOver) {
                sum += RewrittenLoop.read(READS_A_BATCH);
            }
            sink = sum;
        }, "burst");
        burst.start();
        long caughtNanos = -1;
        while (System.nanoTime() - burstStartNanos < TimeUnit.SECONDS.toNanos(GIVE_UP_SECONDS)) {
            if (caching(server, agent)) {
                caughtNanos = System.nanoTime() - burstStartNanos;
                break;
            }
            LockSupport.parkNanos(1_000_000L);
        }
        burstOver = true;
        burst.join();
        System.out.println(RESULT_PREFIX + "caughtMillis=" + (caughtNanos < 0 ? -1 : caughtNanos / 1e6)
                + " cachingBeforeBurst=" + cachingBeforeBurst);
    }

    private static boolean caching(MBeanServer server, ObjectName agent) throws JMException {
        return (Boolean) server.getAttribute(agent, "Caching");
    }
}
