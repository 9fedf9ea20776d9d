package io.clockagent.agent.internal.caching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.agent.internal.options.AgentOptions;
import java.util.function.BooleanSupplier;
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

    @Test
    void cacheAutoEndsARestWhenABurstOfReadsWakesItAndStartsCaching() {
        CachingDecision decision = new CachingDecision(AgentOptions.DEFAULT_TICK_NANOS);
        CacheGate gate = CacheGate.of(decision);
        FakeTicker ticker = new FakeTicker(0);
        // The first slot sees no read, so the ticker rests; 5 ms into the rest a burst of reads wakes it.
        ticker.scriptRests(new long[] {5_000_000L}, new long[] {1_000_000_000L});

        assertTrue(gate.opensOnFirstRead(ticker));

        assertEquals(1, ticker.rests, "the rest ended at the burst's wake, not after another");
        assertTrue(decision.caching());
    }

    @Test
    void cacheAutoRestsOnAfterAWakeByTooFewReads() {
        CachingDecision decision = new CachingDecision(AgentOptions.DEFAULT_TICK_NANOS);
        CacheGate gate = CacheGate.of(decision);
        FakeTicker ticker = new FakeTicker(0);
        // Woken 5 ms into the rest with one read counted: far from a rate worth a look, so it parks for the rest.
        ticker.scriptRests(new long[] {5_000_000L, CacheWhileItPays.REST_NANOS}, new long[] {1L, 0L});
        ticker.closesAfterRests = true;

        assertFalse(gate.opensOnFirstRead(ticker), "closed after the scripted rests");

        assertEquals(2, ticker.rests);
        assertFalse(decision.caching());
    }

    @Test
    void cacheAutoPricesADirectReadInTheServiceByAPairOfWindowsWhileItCaches() throws InterruptedException {
        FakeTicker ticker = new FakeTicker(1_000_000L);
        ticker.priceReads(150, 750);

        CacheGate gate = cachingFromFirstRead(ticker);
        CachingDecision decision = gate.decision();
        tickUntilPairs(gate, ticker, decision.directReadPrice(), DirectReadPrice.FEWEST_PAIRS);

        assertEquals(DirectReadPrice.FEWEST_PAIRS, decision.directReadPrice().pairs());
        assertEquals(DirectReadPrice.FEWEST_PAIRS * CacheWhileItPays.PRICE_SEGMENTS_A_KIND, ticker.countings);
        assertEquals(600.0, decision.directReadPrice().inServiceNanos(), 1.0);
        assertEquals(decision.directReadPrice().inServiceNanos(), decision.savedReadNanos(), "far above the call"
                + " timed alone, with pairs that agree");
    }

    @Test
    void cacheAutoGivesThePriceUpWhereItsPairsCouldNotMakeItPrecise() throws InterruptedException {
        FakeTicker ticker = new FakeTicker(1_000_000L);
        // A direct read of 30 ns over a counted one, as on a vDSO clock, in segments that swing 3 us either way.
        ticker.priceReads(5_000, 5_030);
        ticker.directReadSwingNanos = 3_000;

        CacheGate gate = cachingFromFirstRead(ticker);
        CachingDecision decision = gate.decision();
        DirectReadPrice price = decision.directReadPrice();
        tickUntilPairs(gate, ticker, price, DirectReadPrice.PAIRS_TO_JUDGE_REACH);
        tickFor(gate, ticker, 3 * CacheWhileItPays.PROMPT_PRICE_INTERVAL_NANOS, () -> false);

        assertEquals(DirectReadPrice.PAIRS_TO_JUDGE_REACH, price.pairs(), "no pair after the judgement");
        assertEquals(DIRECT_CALL_NANOS, decision.savedReadNanos(), "the call timed alone stays the price");
    }

    @Test
    void cacheAutoDoesNotPriceWhereTheServiceCpuTimeCannotBeRead() throws InterruptedException {
        FakeTicker ticker = new FakeTicker(1_000_000L);
        ticker.serviceCpuUnknown = true;

        CacheGate gate = cachingFromFirstRead(ticker);
        CachingDecision decision = gate.decision();
        tickFor(gate, ticker, 2 * CacheWhileItPays.PROMPT_PRICE_INTERVAL_NANOS, () -> false);

        assertEquals(0, ticker.countings);
        assertEquals(0, decision.directReadPrice().pairs());
    }

    /** A {@code cache=auto} gate that opened on the ticker's first read and ticks. */
    private static CacheGate cachingFromFirstRead(FakeTicker ticker) {
        CacheGate gate = CacheGate.of(new CachingDecision(AgentOptions.DEFAULT_TICK_NANOS));
        assertTrue(gate.opensOnFirstRead(ticker));
        gate.tickingStarts();
        return gate;
    }

    /** Ticks, a millisecond apart, until {@code pairs} pairs, or for three times their mean wait. */
    private static void tickUntilPairs(CacheGate gate, FakeTicker ticker, DirectReadPrice price, int pairs)
            throws InterruptedException {
        tickFor(gate, ticker, 3 * pairs * CacheWhileItPays.PROMPT_PRICE_INTERVAL_NANOS, () -> price.pairs() >= pairs);
    }

    /** Ticks, a millisecond apart, for {@code nanos} or until {@code done}. */
    private static void tickFor(CacheGate gate, FakeTicker ticker, long nanos, BooleanSupplier done)
            throws InterruptedException {
        long untilNanos = System.nanoTime() + nanos;
        while (!done.getAsBoolean() && System.nanoTime() - untilNanos < 0) {
            gate.sampledBefore(ticker.wallNanosNow() + AgentOptions.DEFAULT_TICK_NANOS, ticker);
            Thread.sleep(1);
        }
    }

    /**
     * A ticker whose parks return at once, and whose count of direct reads grows by a step at each look; where asked,
     * a read wakes it from its first idle as it closes, and its rests return as a script says, each adding reads, and
     * where asked it closes at the script's end. Its service spends, where asked, CPU time on each read counted.
     */
    private static final class FakeTicker implements GatedTicker {
        private long readsPerLook;
        private long directReads;
        private long[] restElapsedNanos = new long[0];
        private long[] restAddedReads = new long[0];
        boolean running = true;
        boolean closesAfterIdle;
        boolean closesAfterRests;
        int withdrawals;
        int idles;
        int rests;
        int countings;
        boolean serviceCpuUnknown;
        /*
         * Where set, the reads of each direct segment cost this much more or less, by turns of the counted segments
         * before them, three a pair: so pairs by turns above and below.
         */
        long directReadSwingNanos;
        private boolean counting;
        private long countedReadNanos;
        private long directReadNanos;
        private long readsCpuNanos;

        FakeTicker(long readsPerLook) {
            this.readsPerLook = readsPerLook;
        }

        /** What a read costs the process's CPU time while cached and counted, and while direct. */
        void priceReads(long countedNanos, long directNanos) {
            countedReadNanos = countedNanos;
            directReadNanos = directNanos;
        }

        /** Each rest returns the next elapsed time and adds the next reads; rests after the script return in full. */
        void scriptRests(long[] elapsedNanos, long[] addedReads) {
            restElapsedNanos = elapsedNanos;
            restAddedReads = addedReads;
        }

        @Override
        public void withdraw() {
            withdrawals++;
            counting = false;
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
        public boolean countReads() {
            countings++;
            directReadSwingNanos = -directReadSwingNanos;
            counting = true;
            return true;
        }

        @Override
        public long directReads() {
            directReads += readsPerLook;
            readsCpuNanos += readsPerLook * (counting ? countedReadNanos : directReadNanos + directReadSwingNanos);
            return directReads;
        }

        @Override
        public long serviceCpuNanos() {
            return serviceCpuUnknown ? ServiceCpuTime.UNKNOWN : readsCpuNanos;
        }

        @Override
        public long fixedJvmCpuNanos() {
            return serviceCpuUnknown ? ServiceCpuTime.UNKNOWN : 0L;
        }

        @Override
        public long parkUntil(long startNanos, long forNanos) {
            return forNanos;
        }

        @Override
        public long restUntil(long startNanos, long forNanos) {
            if (rests >= restElapsedNanos.length) {
                return forNanos;
            }
            directReads += restAddedReads[rests];
            long elapsedNanos = restElapsedNanos[rests++];
            running &= !(closesAfterRests && rests == restElapsedNanos.length);
            return elapsedNanos;
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
