package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.tamper.JmxTamperingMain;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.OnEachJdk;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's MBean gives application code no way to the live ticker: {@code MBeanServer.getClassLoaderFor} on it
 * must not lead to internals that reflection can open, so the cached clock keeps moving with the real one.
 */
class ApplicationCannotFreezeTheClockThroughJmxTest {

    /** Across a 1.5 s sleep a frozen clock moves 0 ms; a live one moves with the direct clock, give or take ticks. */
    private static final long ADVANCE_SLACK_MILLIS = 1_000;

    @OnEachJdk
    void theMBeansClassLoaderLeadsToNothingThatCanFreezeTheClock(int featureVersion, @TempDir Path runDirectory) {
        ForkResult result = new ForkedJvm(Jdks.require(featureVersion), runDirectory)
                // cache=always: the fixture reads too little for cache=auto to tick at all.
                .javaagent(BuildOutputs.agentJar(), "include=" + JmxTamperingMain.class.getPackageName()
                        + ",cache=always")
                .classPath(BuildOutputs.testClasses())
                .runMain(JmxTamperingMain.class.getName());

        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals("jmx-tampering ClassNotFoundException", result.stdoutLineStartingWith("jmx-tampering "),
                "the MBean's class loader is the platform loader, which cannot name the agent's internals\n"
                        + result.describe());
        Map<String, Long> advance = result.readings("advance");
        assertTrue(Math.abs(advance.get("site") - advance.get("direct")) <= ADVANCE_SLACK_MILLIS,
                "the call site moved " + advance.get("site") + " ms while the direct clock moved "
                        + advance.get("direct") + " ms\n" + result.describe());
        assertEquals("tickers 1", result.stdoutLineStartingWith("tickers "), result.describe());
    }
}
