package io.clockagent.agent.internal.caching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.agent.internal.options.AgentOptions;
import org.junit.jupiter.api.Test;

/**
 * The gates against a ticker that only counts what they ask of it: its parks return at once and its direct reads
 * grow as a test sets them. The rule the cache=auto gate applies is {@code CachingDecisionTest}'s.
 */
class CacheGateTest {

    private static final double DIRECT_CALL_NANOS = 100.0;

    @Test
    void cacheAlwaysTicksFromTheFirstReadAndIdlesUntilTheNextAtEachReview() {
        CacheGate gate = CacheGate.of(null);
        FakeTicker ticker = new FakeTicker(0);

        assertTrue(gate.opensOnFirstRead(ticker));
        assertFalse(gate.sampledBefore(Long.MAX_VALUE, ticker));
        assertTrue(gate.readyToReview());
        assertTrue(gate.review(ticker));

        assertEquals(1, ticker.idles);
        assertEquals(0, ticker.withdrawals);
        assertNull(gate.decision());
    }

    @Test
    void cacheAutoMeasuresTheDirectCallAndStartsReadsOnTheDirectClock() {
        CachingDecision decision = new CachingDecision(AgentOptions.DEFAULT_TICK_NANOS);
        CacheGate gate = CacheGate.of(decision);
        FakeTicker ticker = new FakeTicker(0);
        ticker.running = false;

        assertFalse(gate.opensOnFirstRead(ticker), "closed before any read was counted");

        assertSame(decision, gate.decision());
        assertEquals(DIRECT_CALL_NANOS, decision.directCallNanos());
        assertEquals(1, ticker.withdrawals);
        assertFalse(decision.caching());
    }

    @Test
    void cacheAutoStartsCachingOnceTheCountedReadsPayAndWaitsForAWindowToReview() {
        CachingDecision decision = new CachingDecision(AgentOptions.DEFAULT_TICK_NANOS);
        CacheGate gate = CacheGate.of(decision);
        // A billion direct reads between two looks: far above break-even on any host.
        FakeTicker ticker = new FakeTicker(1_000_000_000L);

        assertTrue(gate.opensOnFirstRead(ticker));

        assertTrue(decision.caching());
        assertEquals(1, decision.switches());
        assertFalse(gate.readyToReview(), "no sampling window yet");
    }

    @Test
    void cacheAutoWokenFromASlotWithoutReadsWithdrawsAgainSoThatTheReadsAfterTheWakingOneRaiseNoDemand() {
        CachingDecision decision = new CachingDecision(AgentOptions.DEFAULT_TICK_NANOS);
        CacheGate gate = CacheGate.of(decision);
        FakeTicker ticker = new FakeTicker(0);
        ticker.closesAfterIdle = true;

        assertFalse(gate.opensOnFirstRead(ticker), "closed after the idle");

        assertEquals(1, ticker.idles);
        assertEquals(2, ticker.withdrawals);
    }

    /**
     * A ticker whose parks return at once, and whose count of direct reads grows by a step at each look; where asked,
     * a read wakes it from its first idle as it closes.
     */
    private static final class FakeTicker implements GatedTicker {
        private final long readsPerLook;
        private long directReads;
        boolean running = true;
        boolean closesAfterIdle;
        int withdrawals;
        int idles;

        FakeTicker(long readsPerLook) {
            this.readsPerLook = readsPerLook;
        }

        @Override
        public void withdraw() {
            withdrawals++;
        }

        @Override
        public void publish() {
        }

        @Override
        public boolean idleUntilDemand() {
            idles++;
            boolean woken = running;
            running &= !closesAfterIdle;
            return woken;
        }

        @Override
        public long directReads() {
            directReads += readsPerLook;
            return directReads;
        }

        @Override
        public long parkUntil(long startNanos, long forNanos) {
            return forNanos;
        }

        @Override
        public long wallNanosNow() {
            return System.currentTimeMillis() * 1_000_000L;
        }

        @Override
        public double measureDirectCallNanos() {
            return DIRECT_CALL_NANOS;
        }

        @Override
        public boolean running() {
            return running;
        }
    }
}
