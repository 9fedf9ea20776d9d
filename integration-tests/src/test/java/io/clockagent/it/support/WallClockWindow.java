package io.clockagent.it.support;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The wall-clock interval around a forked run. A reading that falls inside it is a real reading of the current
 * time, rather than zero, a stale constant or garbage. This is a correctness check, not a timing one: the slack is
 * seconds, thousands of times the agent's tick.
 */
public record WallClockWindow(long startMillis, long endMillis) {

    private static final long SLACK_MILLIS = 5_000;

    public void assertContains(String what, long readingMillis) {
        assertTrue(readingMillis >= startMillis - SLACK_MILLIS && readingMillis <= endMillis + SLACK_MILLIS,
                what + " read " + readingMillis + " ms, outside the run's wall-clock window [" + startMillis + ", "
                        + endMillis + "] ms (with " + SLACK_MILLIS + " ms slack)");
    }
}
