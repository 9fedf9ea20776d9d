package io.clockagent.demo.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.demo.RunResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SavedCpuCheckTest {

    /** Agent off: 200 us a request. Agent on at 10,000 requests a second: each 10 us less saves 100 ms a second. */
    private static final List<RunResult> OFF = List.of(off(), off(), off());

    @Test
    void theAgentsMedianWithinTheRoundsSpreadHolds() {
        List<RunResult> on = List.of(cached(190, 90.0), cached(180, 150.0), cached(170, 400.0));

        assertEquals(List.of(), SavedCpuCheck.problems(OFF, on), "median 150 within 100 .. 300");
        assertTrue(SavedCpuCheck.judged(on).contains("judged against the rounds' spread"), SavedCpuCheck.judged(on));
    }

    @Test
    void theAgentsMedianBelowEveryRoundIsAProblem() {
        List<RunResult> on = List.of(cached(190, 40.0), cached(180, 60.0), cached(170, 400.0));

        List<String> problems = SavedCpuCheck.problems(OFF, on);

        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("60.00 ms, lies outside the rounds' spread") && problems.get(0)
                .contains("(100.00 .. 300.00)"), problems.get(0));
    }

    @Test
    void theAgentsMedianAboveEveryRoundIsAProblem() {
        List<RunResult> on = List.of(cached(190, 310.0), cached(180, 320.0), cached(170, 50.0));

        assertEquals(1, SavedCpuCheck.problems(OFF, on).size());
    }

    @Test
    void fewerRoundsThatCachedThanItTakesAreNotJudged() {
        List<RunResult> on = new ArrayList<>(Arrays.asList(cached(190, 999.0), null, direct(-0.5)));

        assertEquals(List.of(), SavedCpuCheck.problems(OFF, on));
        assertTrue(SavedCpuCheck.judged(on).contains("not judged: it cached in 1 rounds"), SavedCpuCheck.judged(on));
    }

    @Test
    void aRunThatNeverCachedMayCostItsTickerButNeverSave() {
        List<RunResult> on = List.of(direct(-0.5), direct(0.0), direct(2.0));

        List<String> problems = SavedCpuCheck.problems(OFF, on);

        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("round 3: the agent never cached, yet says it saved 2.00 ms"),
                problems.get(0));
    }

    private static RunResult off() {
        return RunResult.parse("result cpu_us_per_request=200.0 rps=10000");
    }

    private static RunResult cached(double cpuMicrosPerRequest, double agentMillisPerSecond) {
        return RunResult.parse("result cpu_us_per_request=" + cpuMicrosPerRequest + " rps=10000"
                + " agent_cached_during_run=true agent_saved_cpu_ms_per_s=" + agentMillisPerSecond);
    }

    private static RunResult direct(double agentMillisPerSecond) {
        return RunResult.parse("result cpu_us_per_request=200.0 rps=10000 agent_cached_during_run=false"
                + " agent_saved_cpu_ms_per_s=" + agentMillisPerSecond + " ticker_cpu_ms=1.0 measured_s=5.0");
    }
}
