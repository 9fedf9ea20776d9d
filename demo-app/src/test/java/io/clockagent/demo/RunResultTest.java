package io.clockagent.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RunResultTest {

    @Test
    void aFormattedLineParsesBackToTheSameValues() {
        RunResult written = RunResult.builder().put("rps", "12345.6").put("checksum", "00ff").put("agent", "on")
                .build();

        RunResult read = RunResult.parse(written.format());

        assertEquals(written.values(), read.values());
        assertEquals("result rps=12345.6 checksum=00ff agent=on", written.format());
    }

    @Test
    void spacesInValuesBecomeUnderscoresAndEmptyValuesNotAvailable() {
        RunResult result = RunResult.builder().put("failure", "connection 3: reset").put("empty", "").build();

        assertEquals("connection_3:_reset", RunResult.parse(result.format()).text("failure"));
        assertEquals(RunResult.NOT_AVAILABLE, result.text("empty"));
    }

    @Test
    void missingOrNonNumericValuesAreNotNumbers() {
        RunResult result = RunResult.parse("result ticker_cpu_ms=n/a rps=10");

        assertEquals(10.0, result.number("rps"));
        assertTrue(Double.isNaN(result.number("ticker_cpu_ms")));
        assertTrue(Double.isNaN(result.number("absent")));
        assertEquals(RunResult.NOT_AVAILABLE, result.text("absent"));
    }

    @Test
    void linesThatAreNotResultsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> RunResult.parse("demo: hello"));
        assertThrows(IllegalArgumentException.class, () -> RunResult.parse("result novalue"));
    }
}
