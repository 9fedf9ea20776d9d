package io.clockagent.agent.internal.clock;

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

    private CachingDecision measured(boolean cachingAtFirst) {
        CachingDecision decision = new CachingDecision(cachingAtFirst, AgentOptions.DEFAULT_TICK_NANOS);
        decision.directCallMeasured(DIRECT_CALL_NANOS);
        decision.tickerCostMeasured(TICKER_CPU_NANOS_PER_SECOND);
        return decision;
    }

    @Test
    void breaksEvenWhereTheReadsSavedCostWhatTheTickerDoes() {
        assertEquals(1_500_000.0, measured(true).breakEvenReadsPerSecond(), 1e-6);
    }

    @Test
    void aRateThatFallsBelowBreakEvenStopsCachingAndOneThatRisesWellAboveStartsItAgain() {
        CachingDecision decision = measured(true);

        assertTrue(decision.decide(5_000_000), "far above break-even");
        assertFalse(decision.decide(10_000), "far below: caching costs more than it saves");
        assertTrue(decision.decide(5_000_000), "and back");

        assertEquals(2, decision.switches());
    }

    @Test
    void cachingStopsAsSoonAsItCostsMoreThanItSaves() {
        CachingDecision decision = measured(true);

        assertTrue(decision.decide(BREAK_EVEN), "at break-even it still pays for itself");
        assertFalse(decision.decide(BREAK_EVEN * 0.99));
    }

    @Test
    void directReadsStartCachingOnlyWellAboveBreakEven() {
        CachingDecision decision = measured(false);

        assertFalse(decision.decide(BREAK_EVEN * 1.2), "between break-even and the margin, reads stay direct");
        assertFalse(decision.decide(BREAK_EVEN * CachingDecision.START_MARGIN * 0.99));
        assertTrue(decision.decide(BREAK_EVEN * CachingDecision.START_MARGIN));
        assertEquals(1, decision.switches());
    }

    @Test
    void aRateOscillatingAroundBreakEvenSwitchesOnceInsteadOfFlapping() {
        CachingDecision decision = measured(true);
        double[] rates = {BREAK_EVEN * 0.9, BREAK_EVEN * 1.1, BREAK_EVEN * 0.95, BREAK_EVEN * 1.3, BREAK_EVEN * 0.9,
            BREAK_EVEN * 1.4, BREAK_EVEN * 1.05};

        for (double rate : rates) {
            decision.decide(rate);
        }

        assertFalse(decision.caching(), "it stopped at the first dip and never rose past the margin");
        assertEquals(1, decision.switches());
    }

    @Test
    void aCostlierTickerRaisesTheRateAtWhichCachingPays() {
        CachingDecision decision = measured(true);
        assertTrue(decision.decide(2_000_000));

        decision.tickerCostMeasured(2 * TICKER_CPU_NANOS_PER_SECOND);

        assertFalse(decision.decide(2_000_000), "at 60 ms a second the ticker breaks even at 3 million reads");
        assertEquals(3_000_000.0, decision.breakEvenReadsPerSecond(), 1e-6);
    }

    @Test
    void aSlowClockPaysAtAFarLowerRate() {
        CachingDecision decision = measured(false);

        decision.directCallMeasured(600.0);

        assertTrue(decision.decide(100_000), "600 ns a call, as on an hpet host: 100,000 reads save 60 ms a second");
    }

    @Test
    void beforeMeasuringItselfTheTickerIsTakenToCostThreePercentOfACoreAtAOneMillisecondTick() {
        CachingDecision decision = new CachingDecision(true, AgentOptions.DEFAULT_TICK_NANOS);

        assertEquals(30_000_000.0, decision.tickerCpuNanosPerSecond(), 1e-6);
        assertEquals(3_000_000.0, new CachingDecision(true, 10 * AgentOptions.DEFAULT_TICK_NANOS)
                .tickerCpuNanosPerSecond(), 1e-6, "a tenth of the ticks, a tenth of the cost");
    }

    @Test
    void whileCachingAShortSampleSettlesARateFarAboveBreakEven() {
        CachingDecision decision = measured(true);
        long halfMillisecond = 500_000;
        long fourTimesBreakEvenReads = Math.round(CachingDecision.SETTLED_EARLY_MARGIN * BREAK_EVEN / 2_000);

        assertTrue(decision.settledEarly(fourTimesBreakEvenReads, halfMillisecond));
        assertFalse(decision.settledEarly(fourTimesBreakEvenReads - 1, halfMillisecond), "near break-even: full sample");
        assertFalse(decision.settledEarly(fourTimesBreakEvenReads, 2 * halfMillisecond), "half the rate");
    }

    @Test
    void aShortSampleSettlesNothingOnAFewReadsNorWhileReadsAreDirect() {
        CachingDecision caching = measured(true);
        assertFalse(caching.settledEarly(CachingDecision.SETTLED_EARLY_MIN_READS - 1, 1_000),
                "63 reads in a microsecond is a fast rate, but too few reads to tell it from a burst");

        CachingDecision direct = measured(false);
        assertFalse(direct.settledEarly(1_000_000, 500_000), "starting to cache takes the full sample");
    }

    @Test
    void aShortSampleSettlesNothingBeforeTheDirectCallIsMeasured() {
        assertFalse(new CachingDecision(true, AgentOptions.DEFAULT_TICK_NANOS).settledEarly(1_000_000, 500_000));
    }
}
