package io.clockagent.bench.bursty.rewritten;

/**
 * The bursty loop's reads of the clock: with {@code -javaagent:clock-agent.jar=include=} this package, the agent
 * rewrites them into reads of its cached clock. This package holds nothing else, so the include names exactly these
 * reads. Stateless; any thread may call it.
 */
public final class RewrittenLoop {

    private RewrittenLoop() {
    }

    /** Reads the clock {@code reads} times, as fast as it can, and returns the sum so that no read can be dropped. */
    public static long read(long reads) {
        long sum = 0;
        for (long i = 0; i < reads; i++) {
            sum += System.currentTimeMillis();
        }
        return sum;
    }
}
