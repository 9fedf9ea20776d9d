package io.clockagent.bench.fidelity.rewritten;

/**
 * The one read the fidelity probe measures: with {@code -javaagent:clock-agent.jar=include=} this package, the agent
 * rewrites it into a read of its cached clock; without the agent it is the direct call. This package holds nothing
 * else, so the include names exactly this read. Stateless; any thread may call it.
 */
public final class RewrittenClock {

    private RewrittenClock() {
    }

    public static long millis() {
        return System.currentTimeMillis();
    }
}
