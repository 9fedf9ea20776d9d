package io.clockagent.agent.internal.clock;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** A slow host's measurement runs under the integration tests' slow clock: see their SlowClockTest. */
class WallReadCostTest {

    private static final Path CLOCKSOURCE = Path.of("/sys/devices/system/clocksource/clocksource0/current_clocksource");
    /** Clocksources whose reads the vDSO answers in user space. */
    private static final Set<String> VDSO_CLOCKSOURCES = Set.of("tsc", "arch_sys_counter");
    /** Each a measurement of its own, as each ticker makes one; few enough to stay interpreted, as there. */
    private static final int MEASUREMENTS = 20;

    @Test
    void aVdsoReadIsFastInterpretedOnAnyJdkAndCompiled() {
        // The widest spreads seen, JDK 11 to 25, and a compiled read beside a compiled call.
        assertFalse(WallReadCost.isSlow(104, 104));
        assertFalse(WallReadCost.isSlow(80, 49));
        assertFalse(WallReadCost.isSlow(30, 3));
    }

    @Test
    void aSystemCallReadIsSlowOnAnyJdk() {
        assertTrue(WallReadCost.isSlow(276, 83));
        assertTrue(WallReadCost.isSlow(333, 50));
        assertTrue(WallReadCost.isSlow(1_000, 90), "an hpet read");
    }

    @Test
    void aReadMustReachBothBoundsToBeSlow() {
        assertFalse(WallReadCost.isSlow(390, 200), "1.95 times the call");
        assertFalse(WallReadCost.isSlow(95, 5), "90 ns above it");
    }

    @Test
    void theSystemClockOnAVdsoClocksourceMeasuresFast() throws IOException {
        String clocksource = Files.exists(CLOCKSOURCE)
                ? new String(Files.readAllBytes(CLOCKSOURCE), StandardCharsets.US_ASCII).trim() : "unknown";
        if (!VDSO_CLOCKSOURCES.contains(clocksource)) {
            String notice = "NOTICE: clocksource " + clocksource + " is none of " + VDSO_CLOCKSOURCES
                    + "; theSystemClockOnAVdsoClocksourceMeasuresFast is SKIPPED, not passed.";
            System.out.println(notice);
            Assumptions.abort(notice);
        }
        for (int i = 0; i < MEASUREMENTS; i++) {
            assertFalse(WallReadCost.isSlow(), "measurement " + i + " on " + clocksource);
        }
    }
}
