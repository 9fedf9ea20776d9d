package io.clockagent.agent.internal.caching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The saving's arithmetic, fed what the ticker would account: a direct call of 200 ns, as on a slow clock, and a
 * ticker that spends 25 ms of CPU a second.
 */
class SavedCpuTest {

    private static final double DIRECT_CALL_NANOS = 200.0;
    private static final long SECOND = 1_000_000_000L;
    private static final long TICKER_CPU_NANOS_PER_SECOND = 25_000_000L;
    private static final long START = 5 * SECOND;

    @Test
    void aSecondOfCachedReadsSavesTheirDirectCallsLessTheTickersCpu() {
        SavedCpu saved = new SavedCpu();
        saved.begin(START);

        saved.account(500_000, DIRECT_CALL_NANOS, TICKER_CPU_NANOS_PER_SECOND, START + SECOND);

        // 500,000 reads of 200 ns: 100 ms saved, less the ticker's 25 ms.
        assertEquals(75_000_000.0, saved.savedCpuNanosPerSecond(), 1e-3);
        assertEquals(100_000_000.0, saved.readCpuSavedNanos(START + SECOND), 1e-3);
        assertEquals(25_000_000.0, saved.tickerCpuNanos(START + SECOND), 1e-3);
        assertEquals(75_000_000.0, saved.savedCpuNanos(START + SECOND), 1e-3);
    }

    @Test
    void whereTheReadsSavedCostLessThanTheTickerTheSavingIsNegativeAndTheTotalFalls() {
        SavedCpu saved = new SavedCpu();
        saved.begin(START);
        saved.account(500_000, DIRECT_CALL_NANOS, TICKER_CPU_NANOS_PER_SECOND, START + SECOND);

        // Two seconds of 50,000 reads a second: 20 ms saved, against the ticker's 50 ms.
        saved.account(100_000, DIRECT_CALL_NANOS, 3 * TICKER_CPU_NANOS_PER_SECOND, START + 3 * SECOND);

        assertEquals(-15_000_000.0, saved.savedCpuNanosPerSecond(), 1e-3);
        assertEquals(45_000_000.0, saved.savedCpuNanos(START + 3 * SECOND), 1e-3);
        assertEquals(120_000_000.0, saved.readCpuSavedNanos(START + 3 * SECOND), 1e-3);
    }

    @Test
    void whileEveryReadGoesDirectNothingIsSavedAndTheTickersCpuIsTheCost() {
        SavedCpu saved = new SavedCpu();
        saved.begin(START);

        // A look at the direct count a quarter of a second in; NaN is the windows' rate before any window.
        saved.account(Double.NaN, DIRECT_CALL_NANOS, 100_000L, START + SECOND / 4);

        assertEquals(-400_000.0, saved.savedCpuNanosPerSecond(), 1e-3);
        assertEquals(0.0, saved.readCpuSavedNanos(START + SECOND / 4), 1e-9);
        assertEquals(-100_000.0, saved.savedCpuNanos(START + SECOND / 4), 1e-3);
    }

    @Test
    void betweenAccountsTheTotalsMoveOnAtTheLastRatesForAtMostTwoSeconds() {
        SavedCpu saved = new SavedCpu();
        saved.begin(START);
        saved.account(500_000, DIRECT_CALL_NANOS, TICKER_CPU_NANOS_PER_SECOND, START + SECOND);

        assertEquals(112_500_000.0, saved.savedCpuNanos(START + SECOND + SECOND / 2), 1e-3);
        assertEquals(225_000_000.0, saved.savedCpuNanos(START + 60 * SECOND), 1e-3,
                "a ticker that stopped accounting is not taken to save on");
    }

    @Test
    void anIdleTickerSavesAndCostsNothingAndItsTotalsStayWhereTheyWere() {
        SavedCpu saved = new SavedCpu();
        saved.begin(START);
        saved.account(500_000, DIRECT_CALL_NANOS, TICKER_CPU_NANOS_PER_SECOND, START + SECOND);

        saved.idles();

        assertEquals(0.0, saved.savedCpuNanosPerSecond(), 1e-9);
        assertEquals(75_000_000.0, saved.savedCpuNanos(START + 10 * SECOND), 1e-3);
    }

    @Test
    void whereTheTickersCpuCannotBeReadNothingIsClaimed() {
        SavedCpu saved = new SavedCpu();
        saved.begin(START);

        saved.account(500_000, DIRECT_CALL_NANOS, ThreadCpuTime.UNKNOWN, START + SECOND);

        assertTrue(Double.isNaN(saved.savedCpuNanosPerSecond()));
        assertTrue(Double.isNaN(saved.savedCpuNanos(START + SECOND)));
    }
}
