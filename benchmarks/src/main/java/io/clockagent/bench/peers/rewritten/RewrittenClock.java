package io.clockagent.bench.peers.rewritten;

/**
 * The read that {@code PeerClockBenchmark.clockAgent} measures: with {@code -javaagent:clock-agent.jar=include=} this
 * package, the agent rewrites it into a read of its cached clock. It sits apart from the benchmark class so that the
 * same forked JVM can also measure the direct call, which stays unrewritten. Stateless; any thread may call it.
 */
public final class RewrittenClock {

    private RewrittenClock() {
    }

    public static long millis() {
        return System.currentTimeMillis();
    }
}
