package io.clockagent.demo;

import java.util.Locale;

/**
 * The agent's own answer to "does caching pay here?" at one moment, as its MBean gives it: whether it caches, the read
 * rate it estimates, the rate at which caching pays exactly, and the cost of a direct read it measured. With
 * {@code cache=always} the agent estimates nothing and the numbers are NaN. Immutable.
 */
final class AgentVerdict {

    private final boolean caching;
    private final double readsPerSecond;
    private final double breakEvenReadsPerSecond;
    private final double directReadNanos;
    private final long ticks;

    AgentVerdict(boolean caching, double readsPerSecond, double breakEvenReadsPerSecond, double directReadNanos,
            long ticks) {
        this.caching = caching;
        this.readsPerSecond = readsPerSecond;
        this.breakEvenReadsPerSecond = breakEvenReadsPerSecond;
        this.directReadNanos = directReadNanos;
        this.ticks = ticks;
    }

    /** Adds this verdict to a run's result line, under the keys the comparison runner reads. */
    void putInto(RunResult.Builder result) {
        result.put("agent_caching", caching)
                .put("agent_reads_per_s", String.format(Locale.ROOT, "%.0f", readsPerSecond))
                .put("agent_break_even_per_s", String.format(Locale.ROOT, "%.0f", breakEvenReadsPerSecond))
                .put("agent_direct_read_ns", String.format(Locale.ROOT, "%.1f", directReadNanos))
                .put("agent_ticks", ticks);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s; it estimates %,.0f clock reads/s against a break-even of"
                + " %,.0f/s, with a direct read costing %.1f ns; %,d ticks so far",
                caching ? "caching" : "not caching (reads go to the direct clock)", readsPerSecond,
                breakEvenReadsPerSecond, directReadNanos, ticks);
    }
}
