package io.clockagent.agent.internal.jfr;

import jdk.jfr.FlightRecorder;

/**
 * Records the ticker's late ticks as {@link LateTickEvent}s while Flight Recorder runs. Used by the ticker thread
 * only, which makes it as it starts.
 *
 * <p>Until Flight Recorder has been started in this JVM, the event class is never touched: loading it would pull in
 * some 60 jdk.jfr classes for events that nobody records.
 */
public final class LateTickRecorder {

    /** A runtime linked without jdk.jfr cannot even load the event class; one that fails is not retried. */
    private boolean usable = ModuleLayer.boot().findModule("jdk.jfr").isPresent();

    /** A tick published {@code lagNanos} after its boundary, a whole tick period or more. */
    public void record(long lagNanos, long tickNanos) {
        if (usable && FlightRecorder.isInitialized()) {
            try {
                LateTickEvent.commit(lagNanos, tickNanos);
            } catch (LinkageError | RuntimeException | OutOfMemoryError eventFailed) {
                // JFR could not even set the event up (out of memory, say): go on without it.
                usable = false;
            }
        }
    }
}
