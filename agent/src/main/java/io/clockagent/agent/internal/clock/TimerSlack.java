package io.clockagent.agent.internal.clock;

import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * Linux lets a thread shrink its own timer slack, the window in which the kernel may delay its wake-ups to batch
 * them (50 us by default). With 1 ns the ticker wakes within a few microseconds of each boundary.
 *
 * <p>The knob is {@code /proc/TID/timerslack_ns}; a thread may write its own without privileges. The thread's id
 * is the last part of the {@code /proc/thread-self} link, which Java does not otherwise expose before JDK 19.
 */
final class TimerSlack {

    private TimerSlack() {
    }

    /** @return whether the calling thread's slack is now 1 ns; false where the OS does not allow it */
    static boolean lowerForCurrentThread() {
        try {
            String threadSelf = Files.readSymbolicLink(Path.of("/proc/thread-self")).toString();
            String tid = threadSelf.substring(threadSelf.lastIndexOf('/') + 1);
            try (FileOutputStream slack = new FileOutputStream("/proc/" + tid + "/timerslack_ns")) {
                slack.write("1".getBytes(StandardCharsets.US_ASCII));
            }
            return true;
        } catch (IOException | UnsupportedOperationException | InvalidPathException | SecurityException notAllowed) {
            return false;
        }
    }
}
