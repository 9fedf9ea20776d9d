package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.memory.OutOfMemoryMain;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.OnEachJdk;
import io.clockagent.it.support.WallClockWindow;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;

/**
 * A service that runs out of memory, with the ticker needing memory all the while, never leaves the cached clock
 * frozen: afterwards the rewritten call site moves with the real clock, whether the ticker survived (the expected
 * case, and the one printed) or died and sent reads to the direct clock.
 */
class OutOfMemoryTest {

    /** Small enough to fill in a moment. */
    private static final String MAX_HEAP = "-Xmx32m";
    /** Across a 1.5 s sleep a frozen clock moves 0 ms; a live one moves with the direct clock, give or take ticks. */
    private static final long ADVANCE_SLACK_MILLIS = 1_000;

    @OnEachJdk
    void afterAnOutOfMemoryErrorTheCachedClockStillMovesWithTheRealOne(int featureVersion,
            @TempDir Path runDirectory) {
        long startMillis = System.currentTimeMillis();

        ForkResult result = new ForkedJvm(Jdks.require(featureVersion), runDirectory)
                .option(MAX_HEAP)
                .javaagent(BuildOutputs.agentJar(), "include=" + OutOfMemoryMain.class.getPackageName())
                .classPath(BuildOutputs.testClasses())
                .runMain(OutOfMemoryMain.class.getName());

        WallClockWindow window = new WallClockWindow(startMillis, System.currentTimeMillis());
        assertEquals(0, result.exitStatus(), result.describe());
        Map<String, Long> advance = result.readings("advance");
        assertTrue(Math.abs(advance.get("site") - advance.get("direct")) <= ADVANCE_SLACK_MILLIS,
                "the call site moved " + advance.get("site") + " ms while the direct clock moved "
                        + advance.get("direct") + " ms\n" + result.describe());
        window.assertContains("after running out of memory, the service", result.readings("reading").get("after"));
        System.out.println("out of memory on JDK " + featureVersion + ": " + result.stdoutLineStartingWith(
                "ticker-alive ") + ", " + result.stdoutLineStartingWith("ticker-failures "));
    }
}
