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

    private static List<RunResult> results(String... values) {
        return Arrays.stream(values).map(value -> RunResult.parse("result x=" + value)).toList();
    }
}
