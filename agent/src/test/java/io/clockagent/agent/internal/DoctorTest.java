package io.clockagent.agent.internal;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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
}
