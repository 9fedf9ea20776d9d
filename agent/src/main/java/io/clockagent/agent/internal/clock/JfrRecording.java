package io.clockagent.agent.internal.clock;

import jdk.jfr.FlightRecorder;

/**
 * Whether Flight Recorder has been started in this JVM. Until it has, the late-tick event class is never touched:
 * loading it would pull in some 60 jdk.jfr classes for events that nobody records.
 */
final class JfrRecording {

    private JfrRecording() {
    }

    static boolean isRunning() {
        return FlightRecorder.isInitialized();
    }
}
