package io.clockagent.demo;

import java.util.Locale;

/**
 * The agent's own answer to "does caching pay here?" at one moment, as its MBean gives it: whether it caches, the read
 * rate it estimates, the rate at which caching pays exactly, the cost of a direct read it measured alone and in the
 * service, and what it takes each cached read to save. With
 * {@code cache=always} the agent estimates nothing and the numbers are NaN. Immutable.
 */
final class AgentVerdict {

    private final boolean caching;
    private final double readsPerSecond;
    private final double breakEvenReadsPerSecond;
    private final double directReadNanos;
    private final double directReadInServiceNanos;
    private final double savedReadNanos;
    private final long ticks;

    AgentVerdict(boolean caching, double readsPerSecond, double breakEvenReadsPerSecond, double directReadNanos,
            double directReadInServiceNanos, double savedReadNanos, long ticks) {
        this.caching = caching;
        this.readsPerSecond = readsPerSecond;
        this.breakEvenReadsPerSecond = breakEvenReadsPerSecond;
        this.directReadNanos = directReadNanos;
        this.directReadInServiceNanos = directReadInServiceNanos;
        this.savedReadNanos = savedReadNanos;
        this.ticks = ticks;
    }

    /** Adds this verdict to a run's result line, under the keys the comparison runner reads. */
    void putInto(RunResult.Builder result) {
        result.put("agent_caching", caching)
                .put("agent_reads_per_s", String.format(Locale.ROOT, "%.0f", readsPerSecond))
                .put("agent_break_even_per_s", String.format(Locale.ROOT, "%.0f", breakEvenReadsPerSecond))
                .put("agent_direct_read_ns", String.format(Locale.ROOT, "%.1f", directReadNanos))
                .put("agent_direct_read_in_service_ns", String.format(Locale.ROOT, "%.1f", directReadInServiceNanos))
                .put("agent_saved_read_ns", String.format(Locale.ROOT, "%.1f", savedReadNanos))
                .put("agent_ticks", ticks);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s; it estimates %,.0f clock reads/s against a break-even of"
                + " %,.0f/s, with a direct read costing %.1f ns alone and %.1f ns in the service; %,d ticks so far",
                caching ? "caching" : "not caching (reads go to the direct clock)", readsPerSecond,
                breakEvenReadsPerSecond, directReadNanos, directReadInServiceNanos, ticks);
    }
}
