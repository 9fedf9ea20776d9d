package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.support.AgentEntry;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.LiveJvm;
import io.clockagent.it.support.OnEachJdkThroughBothEntries;
import io.clockagent.it.support.OperableService;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stalled ticker leaves a {@code io.clockagent.LateTick} event in a JFR recording. The stall is made, not waited
 * for: the test stops the whole JVM with SIGSTOP and resumes it with SIGCONT, so the tick that was due meanwhile is
 * published at least the stop's length late, whatever the machine's load; through either entry.
 */
class LateTickJfrTest {

    private static final String EVENT = "io.clockagent.LateTick";
    private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long STOP_MILLIS = 200;
    /** Two stops: a stop that lands while the ticker is parked idle between two reads would leave no late tick. */
    private static final int STOPS = 2;
    private static final long BETWEEN_STOPS_MILLIS = 300;
    /** How long the service may take to see its MBean and a tick: a liveness bound, never a speed target. */
    private static final long PATIENCE_MILLIS = 10_000;

    @OnEachJdkThroughBothEntries
    void stoppingTheJvmLeavesLateTickEventsOfAtLeastTheTickInTheRecording(int featureVersion, AgentEntry entry,
            @TempDir Path runDirectory) throws Exception {
        Path recording = runDirectory.resolve("late-ticks.jfr");
        ForkResult result;
        List<Instant> stops = new ArrayList<>();
        // cache=always: the reader's 10,000 reads a second do not pay for a ticker, so by default the ticker soon
        // stops publishing, and a stop that comes after that leaves no late tick to record.
        // report=summary: the ticker's own count of ticks, late ticks, maximum lag and idle periods, which tells a
        // stop the ticker idled through from a late tick that JFR did not record.
        try (LiveJvm service = entry.addTo(new ForkedJvm(Jdks.require(featureVersion), runDirectory)
                        .option("-XX:StartFlightRecording=filename=" + recording + ",dumponexit=true"),
                        "tick=1ms,cache=always,report=summary," + OperableService.INCLUDE_SITES)
                .classPath(BuildOutputs.testClasses())
                .startMain(OperableService.MAIN_CLASS, "sites", "keep-reading")) {
            service.awaitLine("reading");
            // The ticker starts with the first rewritten class and ticks from the first read, on a busy host some way
            // behind "reading": a stop before its first tick finds no cached value to leave stale.
            assertEquals("mbean registered true", service.ask("jmx " + PATIENCE_MILLIS, "mbean registered "),
                    service.describe());
            String ticks = service.awaitLine("ticks ");
            String[] counts = ticks.split(" ");
            assertTrue(Long.parseLong(counts[2]) > Long.parseLong(counts[1]), "the ticker ticks before the stops: "
                    + ticks + "\n" + service.describe());
            for (int stop = 0; stop < STOPS; stop++) {
                stops.add(Instant.now());
                signal("STOP", service.pid());
                Thread.sleep(STOP_MILLIS);
                signal("CONT", service.pid());
                Thread.sleep(BETWEEN_STOPS_MILLIS);
            }
            result = service.finish();
        }
        assertEquals(0, result.exitStatus(), result.describe());

        List<RecordedEvent> lateTicks = new ArrayList<>();
        for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
            if (event.getEventType().getName().equals(EVENT)) {
                lateTicks.add(event);
            }
        }
        assertFalse(lateTicks.isEmpty(), "no " + EVENT + " event in " + recording + "\n" + result.describe());
        long maxLagNanos = 0;
        for (RecordedEvent late : lateTicks) {
            long lagNanos = late.getLong("lagNanos");
            assertTrue(lagNanos >= TICK_NANOS, "a late tick lags a whole tick or more: " + late);
            assertEquals(TICK_NANOS, late.getLong("tickNanos"), late.toString());
            assertEquals("clock-agent-ticker", late.getThread().getJavaName(), late.toString());
            maxLagNanos = Math.max(maxLagNanos, lagNanos);
        }
        StringBuilder events = new StringBuilder();
        for (RecordedEvent late : lateTicks) {
            events.append('\n').append(late.getStartTime()).append(" lag ").append(late.getLong("lagNanos"))
                    .append(" ns");
        }
        assertTrue(maxLagNanos >= TimeUnit.MILLISECONDS.toNanos(STOP_MILLIS / 2), "the stops should show as a lag"
                + " of about " + STOP_MILLIS + " ms; the largest was " + maxLagNanos + " ns in " + lateTicks.size()
                + " events; stops sent at " + stops + ", events:" + events + "\n" + result.describe());
    }

    private static void signal(String signal, long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        assertTrue(kill.waitFor(10, TimeUnit.SECONDS), "kill -" + signal + " did not end");
        assertEquals(0, kill.exitValue(), "kill -" + signal + " " + pid);
    }
}
