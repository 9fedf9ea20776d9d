package io.clockagent.demo.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.demo.RunResult;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ComparisonTableTest {

    @Test
    void theMedianOfAnOddCountIsTheMiddleValue() {
        assertEquals(2.0, ComparisonTable.median(results("3", "1", "2"), r -> r.number("x")));
    }

    @Test
    void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        assertEquals(2.5, ComparisonTable.median(results("4", "1", "2", "3"), r -> r.number("x")));
    }

    @Test
    void valuesThatAreNotAvailableAreLeftOut() {
        assertEquals(5.0, ComparisonTable.median(results("n/a", "5"), r -> r.number("x")));
        assertTrue(Double.isNaN(ComparisonTable.median(results("n/a"), r -> r.number("x"))));
    }

    @Test
    void tickerCpuIsAShareOfOneCoreOverTheMeasuredTime() {
        RunResult result = RunResult.parse("result ticker_cpu_ms=50 measured_s=5");

        assertEquals(1.0, ComparisonTable.tickerCpuPercent(result), 1e-9);
    }

    @Test
    void theAgentsVerdictCountsTheRoundsItCachedInAndQuotesItsMedianFigures() {
        List<RunResult> slowClock = List.of(
                RunResult.parse("result agent_caching=true agent_reads_per_s=900000 agent_break_even_per_s=80000"
                        + " agent_direct_read_ns=300.0"),
                RunResult.parse("result agent_caching=false agent_reads_per_s=100000 agent_break_even_per_s=90000"
                        + " agent_direct_read_ns=320.0"),
                RunResult.parse("result agent_caching=true agent_reads_per_s=1000000 agent_break_even_per_s=85000"
                        + " agent_direct_read_ns=310.0"));

        String verdict = ComparisonTable.agentVerdict(slowClock);

        assertTrue(verdict.contains("caching at the end of 2 of 3 rounds"), verdict);
        assertTrue(verdict.contains("estimated 900,000 clock reads a second"), verdict);
        assertTrue(verdict.contains("break-even of 85,000"), verdict);
        assertTrue(verdict.contains("310.0 ns"), verdict);
        assertTrue(verdict.contains("starts caching at 127,500"), verdict);
        assertTrue(verdict.endsWith("the rounds differ."), verdict);
    }

    @Test
    void theVerdictFollowsWhatTheAgentDidNotWhereTheMedianRateFalls() {
        // Above the break-even but below where caching starts: the agent kept the direct clock it started on.
        String direct = ComparisonTable.agentVerdict(List.of(RunResult.parse("result agent_caching=false"
                + " agent_reads_per_s=560000 agent_break_even_per_s=500000 agent_direct_read_ns=30.5")));
        String cached = ComparisonTable.agentVerdict(List.of(RunResult.parse("result agent_caching=true"
                + " agent_reads_per_s=450000 agent_break_even_per_s=90000 agent_direct_read_ns=320.0")));

        assertTrue(direct.contains("caching at the end of 0 of 1 rounds"), direct);
        assertTrue(direct.endsWith("left the reads on the direct clock, where caching would not pay, and the service"
                + " ran as it does without the agent."), direct);
        assertTrue(cached.endsWith("So it cached, and the table shows what that saves."), cached);
    }

    @Test
    void withoutTheAgentsFiguresTheVerdictSaysSoAndDecidesNothing() {
        String verdict = ComparisonTable.agentVerdict(List.of(RunResult.parse("result rps=1")));

        assertTrue(verdict.contains("caching at the end of n/a rounds"), verdict);
        assertTrue(verdict.contains("estimated n/a clock reads a second"), verdict);
        assertTrue(verdict.endsWith("stops below the break-even"), verdict);
    }

    @Test
    void theClocksShareOfARequestIsItsReadsTimesWhatTheAgentTakesADirectReadToCostTheService() {
        List<RunResult> off = List.of(RunResult.parse("result clock_reads_per_request=50.0 cpu_us_per_request=180.0"));
        List<RunResult> on = List.of(RunResult.parse("result agent_direct_read_ns=250.0 agent_saved_read_ns=320.0"));

        String share = ComparisonTable.clockShareOfRequest(off, on);

        assertTrue(share.startsWith("reading the clock takes about 16.0 us of the 180.0 us"), share);
        assertTrue(share.contains("(50.0 reads of 320.0 ns)"), share);
    }

    private static List<RunResult> results(String... values) {
        return Arrays.stream(values).map(value -> RunResult.parse("result x=" + value)).toList();
    }
}
