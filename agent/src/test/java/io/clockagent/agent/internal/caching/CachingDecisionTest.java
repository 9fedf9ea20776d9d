package io.clockagent.agent.internal.caching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.agent.internal.options.AgentOptions;
import org.junit.jupiter.api.Test;

/**
 * cache=auto's rule, fed measurements instead of a running ticker: a direct call of 20 ns and a ticker of 30 ms of
 * CPU a second break even at 1.5 million reads a second.
 */
class CachingDecisionTest {

    private static final double DIRECT_CALL_NANOS = 20.0;
    private static final double TICKER_CPU_NANOS_PER_SECOND = 30_000_000.0;
    private static final double BREAK_EVEN = TICKER_CPU_NANOS_PER_SECOND / DIRECT_CALL_NANOS;
    private static final long SECOND = 1_000_000_000L;

    private CachingDecision measured() {
        CachingDecision decision = new CachingDecision(AgentOptions.DEFAULT_TICK_NANOS);
        decision.directCallMeasured(DIRECT_CALL_NANOS);
        decision.tickerCostMeasured(TICKER_CPU_NANOS_PER_SECOND);
        return decision;
    }

    @Test
    void breaksEvenWhereTheReadsSavedCostWhatTheTickerDoes() {
        assertEquals(1_500_000.0, measured().breakEvenReadsPerSecond(), 1e-6);
    }

    @Test
    void aRateThatFallsBelowBreakEvenStopsCachingAndOneThatRisesWellAboveStartsItAgain() {
        CachingDecision decision = measured();

        assertTrue(keep(decision, 5_000_000, 0), "far above break-even");
        assertFalse(keep(decision, 10_000, SECOND), "far below: caching costs more than it saves");
        assertTrue(decision.startCaching(5_000_000, 10 * SECOND), "and back");

        assertEquals(2, decision.switches());
        assertEquals(0, decision.trialStops());
    }

    @Test
    void cachingStopsAsSoonAsItCostsMoreThanItSaves() {
        CachingDecision decision = measured();

        assertTrue(keep(decision, BREAK_EVEN, 0), "at break-even it still pays for itself");
        assertFalse(keep(decision, BREAK_EVEN * 0.99, SECOND));
    }

    @Test
    void directReadsStartCachingOnlyWellAboveBreakEven() {
        CachingDecision decision = measured();

        assertFalse(decision.startCaching(BREAK_EVEN * 1.2, 0), "between break-even and the margin, reads stay direct");
        assertFalse(decision.startCaching(BREAK_EVEN * CachingDecision.START_MARGIN * 0.99, SECOND));
        assertTrue(decision.startCaching(BREAK_EVEN * CachingDecision.START_MARGIN, 2 * SECOND));
        assertEquals(1, decision.switches());
    }

    @Test
    void aRateOscillatingAroundBreakEvenSwitchesOnceInsteadOfFlapping() {
        CachingDecision decision = measured();
        double[] rates = {BREAK_EVEN * 0.9, BREAK_EVEN * 1.1, BREAK_EVEN * 0.95, BREAK_EVEN * 1.3, BREAK_EVEN * 0.9,
            BREAK_EVEN * 1.4, BREAK_EVEN * 1.05};

        assertFalse(keep(decision, rates[0], 0));
        for (int second = 1; second < rates.length; second++) {
            decision.startCaching(rates[second], second * SECOND);
        }

        assertFalse(decision.caching(), "it stopped at the first dip and never rose past the margin");
        assertEquals(1, decision.switches());
    }

    @Test
    void windowsThatMayHaveMissedABurstStopOnlyAsATrialSpacedFurtherEachTimeTheDirectCountReversesIt() {
        CachingDecision decision = measured();
        double emptyWindows = 0;
        double burstCouldHide = 2 * BREAK_EVEN;

        assertFalse(decision.keepCaching(emptyWindows, burstCouldHide, 0), "the first unsure stop is a trial");
        assertTrue(decision.startCaching(20 * BREAK_EVEN, SECOND), "the next burst, counted, pays: reversed");
        assertTrue(decision.keepCaching(emptyWindows, burstCouldHide, SECOND
                + CachingDecision.FIRST_TRIAL_INTERVAL_NANOS - 1), "no trial before the interval is over");
        long secondTrialNanos = SECOND + CachingDecision.FIRST_TRIAL_INTERVAL_NANOS;
        assertFalse(decision.keepCaching(emptyWindows, burstCouldHide, secondTrialNanos));
        assertTrue(decision.startCaching(20 * BREAK_EVEN, secondTrialNanos + SECOND), "reversed again");
        assertTrue(decision.keepCaching(emptyWindows, burstCouldHide, secondTrialNanos + SECOND
                + 2 * CachingDecision.FIRST_TRIAL_INTERVAL_NANOS - 1), "twice the interval now");

        assertEquals(2, decision.trialStops());
        assertEquals(4, decision.switches());
    }

    @Test
    void theTrialIntervalStopsGrowingAtItsMaximumAndResetsOnceAStopHolds() {
        CachingDecision decision = measured();
        long nowNanos = 0;
        for (int trial = 0; trial < 10; trial++) {
            nowNanos += CachingDecision.MAX_TRIAL_INTERVAL_NANOS;
            assertFalse(decision.keepCaching(0, 2 * BREAK_EVEN, nowNanos), "trial " + trial);
            nowNanos += SECOND;
            assertTrue(decision.startCaching(20 * BREAK_EVEN, nowNanos));
        }
        assertTrue(decision.keepCaching(0, 2 * BREAK_EVEN, nowNanos + CachingDecision.MAX_TRIAL_INTERVAL_NANOS - 1));

        nowNanos += CachingDecision.MAX_TRIAL_INTERVAL_NANOS;
        assertFalse(decision.keepCaching(0, 2 * BREAK_EVEN, nowNanos));
        nowNanos += CachingDecision.REVERSED_STOP_NANOS;
        assertTrue(decision.startCaching(20 * BREAK_EVEN, nowNanos), "a start long after the stop: the stop held");

        assertFalse(decision.keepCaching(0, 2 * BREAK_EVEN, nowNanos + SECOND), "so the next unsure stop is at once");
    }

    @Test
    void windowsSureThatNothingHidesStopAtOnceWhateverTheTrialInterval() {
        CachingDecision decision = measured();
        assertFalse(decision.keepCaching(0, 2 * BREAK_EVEN, 0));
        assertTrue(decision.startCaching(20 * BREAK_EVEN, SECOND));

        assertFalse(decision.keepCaching(0, BREAK_EVEN * 0.99, 2 * SECOND), "even the upper bound does not pay");
        assertEquals(1, decision.trialStops());
    }

    @Test
    void aSureStopThatTheCountReversesLeavesTheFirstIntervalBeforeTheNextTrialAndDoublesNothing() {
        CachingDecision decision = measured();
        assertFalse(decision.keepCaching(0, 2 * BREAK_EVEN, 0), "a trial");
        assertTrue(decision.startCaching(20 * BREAK_EVEN, SECOND), "reversed: the first interval");
        long sureStopNanos = SECOND + CachingDecision.FIRST_TRIAL_INTERVAL_NANOS;
        assertFalse(decision.keepCaching(BREAK_EVEN / 2, BREAK_EVEN / 2, sureStopNanos), "sure: the rate fell");

        long restartedNanos = sureStopNanos + SECOND;
        assertTrue(decision.startCaching(20 * BREAK_EVEN, restartedNanos), "the rate rose again");

        assertTrue(decision.keepCaching(0, 2 * BREAK_EVEN, restartedNanos + CachingDecision.FIRST_TRIAL_INTERVAL_NANOS
                - 1), "the first interval, not twice it");
        assertFalse(decision.keepCaching(0, 2 * BREAK_EVEN, restartedNanos
                + CachingDecision.FIRST_TRIAL_INTERVAL_NANOS));
    }

    @Test
    void aCostlierTickerRaisesTheRateAtWhichCachingPays() {
        CachingDecision decision = measured();
        assertTrue(keep(decision, 2_000_000, 0));

        decision.tickerCostMeasured(2 * TICKER_CPU_NANOS_PER_SECOND);

        assertFalse(keep(decision, 2_000_000, SECOND), "at 60 ms a second the ticker breaks even at 3 million reads");
        assertEquals(3_000_000.0, decision.breakEvenReadsPerSecond(), 1e-6);
    }

    @Test
    void aSlowClockPaysAtAFarLowerRate() {
        CachingDecision decision = measured();

        decision.directCallMeasured(600.0);

        assertTrue(decision.startCaching(100_000, 0),
                "600 ns a call, as on an hpet host: 100,000 reads save 60 ms a second");
    }

    @Test
    void beforeMeasuringItselfTheTickerIsTakenToCostOneAndAHalfPercentOfACoreAtAOneMillisecondTick() {
        CachingDecision decision = new CachingDecision(AgentOptions.DEFAULT_TICK_NANOS);

        assertEquals(15_000_000.0, decision.tickerCpuNanosPerSecond(), 1e-6);
        assertEquals(1_500_000.0, new CachingDecision(10 * AgentOptions.DEFAULT_TICK_NANOS)
                .tickerCpuNanosPerSecond(), 1e-6, "a tenth of the ticks, a tenth of the cost");
    }

    @Test
    void fewerWindowsWatchOnlyARateThatPaysFourTimesOver() {
        CachingDecision decision = measured();

        assertTrue(decision.paysClearly(CachingDecision.CLEAR_MARGIN * BREAK_EVEN));
        assertFalse(decision.paysClearly(CachingDecision.CLEAR_MARGIN * BREAK_EVEN * 0.99));
    }

    @Test
    void aDirectCountDeservesACloserLookFromTheRateThatWouldStartCaching() {
        CachingDecision decision = measured();

        assertTrue(decision.paysToStart(CachingDecision.START_MARGIN * BREAK_EVEN));
        assertFalse(decision.paysToStart(CachingDecision.START_MARGIN * BREAK_EVEN * 0.99));
    }

    @Test
    void aDirectCountFarBelowBreakEvenIsLookedAtOnceASecondOnly() {
        CachingDecision decision = measured();

        assertTrue(decision.worthWatching(CachingDecision.WATCH_MARGIN * BREAK_EVEN));
        assertFalse(decision.worthWatching(CachingDecision.WATCH_MARGIN * BREAK_EVEN * 0.99));
        assertFalse(decision.worthWatching(1.0), "a read a second");
    }

    /** A steady reader's windows: their upper bound is their rate. */
    private static boolean keep(CachingDecision decision, double readsPerSecond, long nowNanos) {
        return decision.keepCaching(readsPerSecond, readsPerSecond, nowNanos);
    }
}
