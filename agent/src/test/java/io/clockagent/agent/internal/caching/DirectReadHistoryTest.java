package io.clockagent.agent.internal.caching;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The exact count of direct reads, fed slot counts instead of a running ticker. */
class DirectReadHistoryTest {

    private static final long SLOT = DirectReadHistory.SLOT_NANOS;
    private static final double MIN_SPAN_SECONDS = DirectReadHistory.MIN_SPAN_NANOS / 1e9;

    @Test
    void aBurstRightAfterTheStartIsWeighedOverTheMinimumSpan() {
        DirectReadHistory history = new DirectReadHistory();
        history.begin(0);

        assertEquals(3_000_000 / MIN_SPAN_SECONDS, history.readsPerSecond(0, 3_000_000, 10_000_000L), 1e-6);
    }

    @Test
    void overMoreThanTheMinimumSpanTheRateIsTheCountOverTheSpan() {
        DirectReadHistory history = new DirectReadHistory();
        history.begin(0);
        for (int slot = 0; slot < 7; slot++) {
            history.slotEnded(slot * SLOT, 250_000);
        }

        assertEquals(1_000_000.0, history.readsPerSecond(7 * SLOT, 250_000, 8 * SLOT), 1e-6,
                "eight slots of 250,000 reads over two seconds");
    }

    @Test
    void slotsThatBeganBeforeTheHorizonNoLongerCount() {
        DirectReadHistory history = new DirectReadHistory();
        history.begin(0);
        history.slotEnded(0, 9_000_000);
        long nowNanos = DirectReadHistory.HORIZON_NANOS + SLOT;

        assertEquals(1_000 / MIN_SPAN_SECONDS, history.readsPerSecond(nowNanos - SLOT, 1_000, nowNanos), 1e-6);
    }

    @Test
    void beginningAgainForgetsEarlierCounts() {
        DirectReadHistory history = new DirectReadHistory();
        history.begin(0);
        history.slotEnded(0, 9_000_000);
        history.begin(SLOT);

        assertEquals(0.0, history.readsPerSecond(SLOT, 0, 2 * SLOT));
    }
}
