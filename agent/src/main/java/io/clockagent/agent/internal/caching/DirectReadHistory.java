package io.clockagent.agent.internal.caching;

import java.util.Arrays;

/**
 * For {@code cache=auto} while reads go to the direct clock, where each is counted: the counts of the last
 * {@value #HORIZON_NANOS} ns, in slots, and the rate they make. The rate is reckoned over at least
 * {@value #MIN_SPAN_NANOS} ns, so that one burst, however intense, is weighed as what it adds to the rate of a whole
 * second or more, while a burst large enough to pay on its own still starts caching within it. Used by the ticker
 * thread only.
 */
final class DirectReadHistory {

    static final long HORIZON_NANOS = 2_000_000_000L;
    static final long SLOT_NANOS = 250_000_000L;
    static final long MIN_SPAN_NANOS = 1_500_000_000L;

    private final long[] slotReads = new long[(int) (HORIZON_NANOS / SLOT_NANOS)];
    private final long[] slotStartNanos = new long[slotReads.length];
    private int nextSlot;

    /** Forgets what was counted: reads go direct from {@code nowNanos} on. */
    void begin(long nowNanos) {
        Arrays.fill(slotReads, 0);
        Arrays.fill(slotStartNanos, nowNanos - 2 * HORIZON_NANOS);
    }

    void slotEnded(long startNanos, long reads) {
        slotStartNanos[nextSlot] = startNanos;
        slotReads[nextSlot] = reads;
        nextSlot = (nextSlot + 1) % slotReads.length;
    }

    /**
     * The rate of the finished slots that began within the horizon and the current one, which began at
     * {@code currentSlotStartNanos} and has counted {@code currentSlotReads} so far.
     */
    double readsPerSecond(long currentSlotStartNanos, long currentSlotReads, long nowNanos) {
        long reads = currentSlotReads;
        long earliestNanos = currentSlotStartNanos;
        for (int slot = 0; slot < slotReads.length; slot++) {
            if (nowNanos - slotStartNanos[slot] <= HORIZON_NANOS) {
                reads += slotReads[slot];
                earliestNanos = Math.min(earliestNanos, slotStartNanos[slot]);
            }
        }
        return reads * 1e9 / Math.max(MIN_SPAN_NANOS, nowNanos - earliestNanos);
    }
}
