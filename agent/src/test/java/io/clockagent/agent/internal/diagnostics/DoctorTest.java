package io.clockagent.agent.internal.diagnostics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class DoctorTest {

    @Test
    void reportsTheClocksourceTheCostsAndAVerdict() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        new Doctor(new PrintStream(out, true, StandardCharsets.UTF_8)).run();

        String report = out.toString(StandardCharsets.UTF_8);
        assertTrue(report.contains("clocksource:"), report);
        assertTrue(report.contains("currentTimeMillis():"), report);
        assertTrue(report.contains("cached read:"), report);
        assertTrue(report.contains("ticker cost:"), report);
        assertTrue(report.lines().anyMatch(line -> line.startsWith("verdict: ")), report);
    }

    @Test
    void aFastClockPaysAboveTheRateWhereTheReadsSavedCostWhatTheTickerDoes() {
        // Each read saves the slower of the two direct figures less the cached read: 21.0 - 0.5 = 20.5 ns.
        List<String> lines = verdict("tsc", 20.0, 21.0, 0.5, 30.75);

        assertEquals("break-even:             1,500,000 reads per second (each saves 20.5 ns; the ticker spends"
                + " 30.75 ms per second)", lines.get(0));
        assertEquals("cache=auto (default):   caches from about 2,250,000 reads per second (1.5x break-even), and"
                + " reads the direct clock again below break-even", lines.get(1));
        assertTrue(lines.get(2).startsWith("verdict: PAYS ONLY WHEN BUSY. The direct clock is fast here (20 ns a call,"
                + " tsc: a user-space vDSO read)"), lines.get(2));
        assertTrue(lines.get(2).contains("more than about 1,500,000 times a second"), lines.get(2));
        assertEquals(3, lines.size(), "no word of java.time where the clock is cheap: " + lines);
    }

    @Test
    void aSlowClockPaysFromAFarLowerRate() {
        List<String> lines = verdict("hpet", 600.0, 610.0, 0.4, 30.0);

        assertTrue(lines.get(0).startsWith("break-even:             49,213 reads per second"), lines.get(0));
        assertTrue(lines.get(2).startsWith("verdict: PAYS. The direct clock is slow here (600 ns a call, hpet)"),
                lines.get(2));
        assertTrue(lines.get(3).startsWith("java.time: ") && lines.get(3).endsWith(
                "cachedInstants=ch.qos.logback:org.apache.logging.log4j"), lines.get(3));
    }

    @Test
    void callsThatQueueMachineWideMakeAFastLookingClockSlow() {
        List<String> lines = verdict("xen", 60.0, 200.0, 0.4, 30.0);

        assertTrue(lines.get(2).startsWith("verdict: PAYS. "), "two threads at once cost 3.3x one: " + lines.get(2));
    }

    @Test
    void aCachedReadNoCheaperThanADirectOneNeverPays() {
        List<String> lines = verdict("tsc", 0.5, 0.5, 0.5, 30.0);

        assertEquals(List.of("verdict: a cached read is no cheaper than a direct one here; the agent does not pay."),
                lines);
    }

    private static List<String> verdict(String clocksource, double directNanos, double directTwoThreadsNanos,
            double cachedNanos, double tickerCpuMillisPerSecond) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new Doctor(new PrintStream(out, true, StandardCharsets.UTF_8)).verdict(clocksource, directNanos,
                directTwoThreadsNanos, cachedNanos, tickerCpuMillisPerSecond);
        return out.toString(StandardCharsets.UTF_8).lines().collect(Collectors.toList());
    }
}
