package io.clockagent.bench.preticker.rewritten;

/**
 * The pre-ticker reader's reads of the clock: with {@code include=} this package, the agent rewrites them into reads
 * of its cached clock. Stateless; any thread may call it.
 */
public final class RewrittenReads {

    private RewrittenReads() {
    }

    /** Reads the clock {@code reads} times, as fast as it can, and returns the sum so that no read can be dropped. */
    public static long read(int reads) {
        long sum = 0;
        for (int i = 0; i < reads; i++) {
            sum += System.currentTimeMillis();
        }
        return sum;
    }
}
