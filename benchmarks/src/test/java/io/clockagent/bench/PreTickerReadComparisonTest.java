package io.clockagent.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.bench.PreTickerReadComparison.Options;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class PreTickerReadComparisonTest {

    @Test
    void noArgumentsRunTenRoundsOfThreeSecondsOnThisJdkWithoutABaseline() {
        Options options = Options.parse(new String[0]);

        assertEquals(Path.of(System.getProperty("java.home"), "bin", "java"), options.java());
        assertEquals(10, options.rounds());
        assertEquals(3, options.seconds());
        assertNull(options.baselineJar());
    }

    @Test
    void eachOptionTakesTheArgumentAfterIt() {
        Options options = Options.parse(new String[] {"--rounds", "6", "--baseline-jar", "old/clock-agent.jar",
            "--seconds", "9", "--java", "/jdk/bin/java"});

        assertEquals(Path.of("/jdk/bin/java"), options.java());
        assertEquals(6, options.rounds());
        assertEquals(9, options.seconds());
        assertEquals(Path.of("old/clock-agent.jar"), options.baselineJar());
    }

    @Test
    void anUnknownArgumentIsRefusedWithTheValidForms() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> Options.parse(new String[] {"--threads", "4"}));

        assertTrue(refused.getMessage().contains("'--threads'"), refused.getMessage());
        assertTrue(refused.getMessage().endsWith(Options.VALID), refused.getMessage());
    }

    @Test
    void anOptionWithoutItsValueIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Options.parse(new String[] {"--rounds"}));
    }

    @Test
    void fewerRoundsThanAMedianIntervalTakesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> Options.parse(new String[] {"--rounds", "5"}));
    }

    @Test
    void aWindowWithoutMoreThanItsLastSecondOrReachingTheStartsLimitIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Options.parse(new String[] {"--seconds", "1"}));
        assertThrows(IllegalArgumentException.class, () -> Options.parse(new String[] {"--seconds", "10"}));
    }

    @Test
    void theBudgetIsMetUpToOnePointOneTimesNoAgent() {
        assertTrue(PreTickerReadComparison.budgetVerdict(1.1).endsWith("1.100x: met"));
        assertTrue(PreTickerReadComparison.budgetVerdict(1.101).endsWith("1.101x: MISSED"));
    }
}
