package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.stall.StallTargetMain;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.LiveJvm;
import io.clockagent.it.support.OnEachJdk;
import io.clockagent.it.support.WallClockWindow;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ticker outlives what a service and its host do to threads: an interrupt storm on every thread, then the whole
 * JVM stopped with SIGSTOP and resumed with SIGCONT. After each it is alive, still ticking, and not spinning: over a
 * second of reads its thread uses far less than half a core, where a ticker spinning on a stuck interrupt flag or a
 * missed deadline would use all of one.
 */
class InterruptsAndStallsTest {

    /** How long the JVM stays stopped: more than a thousand 1 ms ticks. Not a bound on anything measured. */
    private static final long STOPPED_MILLIS = 2_000;

    @OnEachJdk
    void afterAnInterruptStormAndASigstopTheTickerTicksWithoutSpinning(int featureVersion,
            @TempDir Path runDirectory) throws Exception {
        long startMillis = System.currentTimeMillis();
        try (LiveJvm target = new ForkedJvm(Jdks.require(featureVersion), runDirectory)
                // The ticker's own resilience, whatever the read rate: cache=auto would rest it while reads are slow.
                .javaagent(BuildOutputs.agentJar(), "include=" + StallTargetMain.class.getPackageName()
                        + ",cache=always")
                .classPath(BuildOutputs.testClasses())
                .startMain(StallTargetMain.class.getName())) {
            target.awaitLine("ready");

            String stormed = target.ask("storm", "stormed ");
            Map<String, String> afterStorm = measure(target);
            signal("STOP", target.pid());
            Thread.sleep(STOPPED_MILLIS);
            signal("CONT", target.pid());
            Map<String, String> afterStall = measure(target);
            ForkResult end = target.finish();

            WallClockWindow window = new WallClockWindow(startMillis, System.currentTimeMillis());
            assertEquals(0, end.exitStatus(), end.describe());
            assertTrue(stormed.endsWith(" ticker-hit true"), stormed);
            assertTicksWithoutSpinning("after the interrupt storm", afterStorm, window);
            assertTicksWithoutSpinning("after SIGSTOP and SIGCONT", afterStall, window);
        }
    }

    private static Map<String, String> measure(LiveJvm target) {
        Map<String, String> values = new HashMap<>();
        for (String word : target.ask("measure", "measured ").split(" ")) {
            int equals = word.indexOf('=');
            if (equals > 0) {
                values.put(word.substring(0, equals), word.substring(equals + 1));
            }
        }
        return values;
    }

    private static void assertTicksWithoutSpinning(String when, Map<String, String> measured,
            WallClockWindow window) {
        assertEquals("true", measured.get("ticker-alive"), when + ": " + measured);
        assertTrue(Long.parseLong(measured.get("ticks-gained")) > 0, when + ", the ticker ticks: " + measured);
        assertTrue(Long.parseLong(measured.get("ticker-cpu-nanos")) < Long.parseLong(measured.get("wall-nanos")) / 2,
                when + ", the ticker used less than half a core: " + measured);
        window.assertContains(when + ", the service", Long.parseLong(measured.get("reading")));
    }

    private static void signal(String signal, long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        assertTrue(kill.waitFor(30, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -" + signal + " " + pid);
    }
}
