package io.clockagent.agent.internal.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The lead follows the median lateness of the wake-ups it is shown, within its bounds. */
class WakeLeadTest {

    @Test
    void startsAtZeroSoAHostThatWakesPromptlyNeverSpins() {
        WakeLead lead = new WakeLead();
        assertEquals(0L, lead.nanos());
        for (int i = 0; i < 1_000; i++) {
            lead.observe(0L);
        }
        assertEquals(0L, lead.nanos());
    }

    @Test
    void settlesWithinAStepOfASteadyLateness() {
        WakeLead lead = new WakeLead();
        for (int i = 0; i < 1_000; i++) {
            lead.observe(23_400L);
        }
        assertTrue(Math.abs(lead.nanos() - 23_400L) <= WakeLead.STEP_NANOS, "lead " + lead.nanos());
    }

    @Test
    void tracksTheMedianOfAScatteredLateness() {
        // Three in four wake-ups late by 10 to 50 us, uniformly, and one in four by 2 ms (a stall): the stalls would
        // drag a mean far up, but the median stays where 2/3 of the spread lies, at 36.7 us.
        Random random = new Random(7);
        WakeLead lead = new WakeLead();
        long sum = 0;
        int observed = 0;
        for (int i = 0; i < 20_000; i++) {
            lead.observe(i % 4 == 3 ? 2_000_000L : 10_000L + random.nextInt(40_001));
            if (i >= 10_000) {
                sum += lead.nanos();
                observed++;
            }
        }
        long averageLeadNanos = sum / observed;
        assertTrue(Math.abs(averageLeadNanos - 36_667L) <= 3 * WakeLead.STEP_NANOS, "average lead " + averageLeadNanos);
    }

    @Test
    void neverExceedsItsCapHoweverLateTheWakeUps() {
        WakeLead lead = new WakeLead();
        for (int i = 0; i < 1_000; i++) {
            lead.observe(5_000_000L);
        }
        assertEquals(WakeLead.MAX_NANOS, lead.nanos());
        lead.observe(-1L);
        assertEquals(WakeLead.MAX_NANOS - WakeLead.STEP_NANOS, lead.nanos());
    }
}
