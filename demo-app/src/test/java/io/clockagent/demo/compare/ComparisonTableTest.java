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

        assertTrue(verdict.contains("caching in 2 of 3 rounds"), verdict);
        assertTrue(verdict.contains("900,000 times a second"), verdict);
        assertTrue(verdict.contains("caching pays above 85,000"), verdict);
        assertTrue(verdict.contains("310.0 ns"), verdict);
        assertTrue(verdict.endsWith("so it caches, and the table shows what that saves"), verdict);
    }

    @Test
    void belowItsBreakEvenTheVerdictSaysTheReadsStayDirect() {
        String verdict = ComparisonTable.agentVerdict(List.of(RunResult.parse("result agent_caching=false"
                + " agent_reads_per_s=200000 agent_break_even_per_s=650000 agent_direct_read_ns=29.0")));

        assertTrue(verdict.contains("caching in 0 of 1 rounds"), verdict);
        assertTrue(verdict.contains("leaves reads on the direct clock"), verdict);
    }

    @Test
    void withoutTheAgentsFiguresTheVerdictSaysSoAndDecidesNothing() {
        String verdict = ComparisonTable.agentVerdict(List.of(RunResult.parse("result rps=1")));

        assertTrue(verdict.contains("caching in n/a rounds"), verdict);
        assertTrue(verdict.contains("read the clock n/a times a second"), verdict);
        assertTrue(verdict.endsWith("here"), verdict);
    }

    private static List<RunResult> results(String... values) {
        return Arrays.stream(values).map(value -> RunResult.parse("result x=" + value)).toList();
    }
}
