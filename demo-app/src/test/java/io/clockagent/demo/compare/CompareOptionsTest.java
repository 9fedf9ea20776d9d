package io.clockagent.demo.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompareOptionsTest {

    @TempDir
    Path dir;

    @Test
    void defaultsAreFiveRoundsOfTheDemoOnThisJdk() throws IOException {
        CompareOptions options = CompareOptions.parse("--agent", agentJar().toString());

        assertEquals(5, options.rounds());
        assertEquals("include=io.clockagent.demo", options.agentOptions());
        assertEquals(Path.of(System.getProperty("java.home")), options.javaHome());
        assertTrue(options.agentJar().isAbsolute());
    }

    @Test
    void theAgentJarIsRequiredAndMustExist() {
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, CompareOptions::parse);
        IllegalArgumentException absent = assertThrows(IllegalArgumentException.class,
                () -> CompareOptions.parse("--agent", dir.resolve("nope.jar").toString()));

        assertTrue(missing.getMessage().contains("--agent is required"), missing.getMessage());
        assertTrue(absent.getMessage().contains("nope.jar"), absent.getMessage());
    }

    @Test
    void aJdkWithoutBinJavaIsRefused() throws IOException {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> CompareOptions.parse("--agent", agentJar().toString(), "--jdk", dir.toString()));

        assertTrue(refused.getMessage().contains("no bin/java"), refused.getMessage());
    }

    @Test
    void unknownOptionsAndBadCountsAreRefusedWithTheValidForms() throws IOException {
        String agent = agentJar().toString();
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> CompareOptions.parse("--agent", agent, "--fast", "yes"));
        IllegalArgumentException badCount = assertThrows(IllegalArgumentException.class,
                () -> CompareOptions.parse("--agent", agent, "--rounds", "0"));

        assertTrue(unknown.getMessage().contains("'--fast'") && unknown.getMessage().contains("--rounds N"));
        assertTrue(badCount.getMessage().contains("'--rounds 0'") && badCount.getMessage().contains("from 1 to 100"));
    }

    @Test
    void theSlowClockIsOffByDefaultAndMustNameABuiltLibrary() throws IOException {
        String agent = agentJar().toString();
        Path library = Files.createFile(dir.resolve("libslowclock.so"));

        assertEquals(null, CompareOptions.parse("--agent", agent).slowClock());
        assertEquals(library, CompareOptions.parse("--agent", agent, "--slow-clock", library.toString()).slowClock());
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> CompareOptions.parse("--agent", agent, "--slow-clock", dir.resolve("none.so").toString()));
        assertTrue(missing.getMessage().contains("none.so") && missing.getMessage().contains("libslowclock.so"),
                missing.getMessage());
    }

    private Path agentJar() throws IOException {
        return Files.createFile(dir.resolve("clock-agent.jar"));
    }
}
