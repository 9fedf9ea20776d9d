package io.clockagent.agent.internal;

import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Linux lets a thread shrink its own timer slack, the window in which the kernel may delay its wake-ups to batch
 * them (50 us by default). With 1 ns the ticker wakes within a few microseconds of each boundary.
 */
final class TimerSlack {

    private static final String OWN_TIMER_SLACK = "/proc/thread-self/timerslack_ns";

    private TimerSlack() {
    }

    /** @return whether the calling thread's slack is now 1 ns; false where the OS does not allow it */
    static boolean lowerForCurrentThread() {
        try (FileOutputStream slack = new FileOutputStream(OWN_TIMER_SLACK)) {
            slack.write("1".getBytes(StandardCharsets.US_ASCII));
            return true;
        } catch (IOException | SecurityException notAllowed) {
            return false;
        }
    }
}
