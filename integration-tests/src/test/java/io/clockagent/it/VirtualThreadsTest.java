package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.vthreads.VirtualThreadsMain;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ClassDump;
import io.clockagent.it.support.ClockReferences;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.InspectorJar;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.WallClockWindow;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A hundred thousand virtual threads read rewritten call sites while the ticker, a platform thread, goes on ticking.
 * Virtual threads came with Java 21, so this runs on the tested JDKs from 21 on.
 */
class VirtualThreadsTest {

    private static final String PACKAGE = VirtualThreadsMain.class.getPackageName();
    private static final String MAIN_CLASS = VirtualThreadsMain.class.getName().replace('.', '/');

    @ParameterizedTest(name = "on JDK {0}")
    @ValueSource(ints = {Jdks.JDK_21, Jdks.JDK_25})
    void aHundredThousandVirtualThreadsReadTheCachedClockWhileTheTickerTicks(int featureVersion,
            @TempDir Path runDirectory) {
        Path dumpDirectory = runDirectory.resolve("dump");
        long startMillis = System.currentTimeMillis();

        ForkResult result = new ForkedJvm(Jdks.require(featureVersion), runDirectory)
                // cache=always: the ticker's ticks are what this watches, at any read rate. The Java start, whose
                // ticker runs from the first rewrite and whose rewrite the inspector sees (InspectorJar.JAVA_REWRITER).
                .javaagent(BuildOutputs.agentJar(), "include=" + PACKAGE + ",cache=always," + InspectorJar.JAVA_REWRITER)
                .javaagent(InspectorJar.path(), dumpDirectory.toString())
                .classPath(BuildOutputs.testClasses())
                .runMain(VirtualThreadsMain.class.getName());

        WallClockWindow window = new WallClockWindow(startMillis, System.currentTimeMillis());
        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals("completed 100000", result.stdoutLineStartingWith("completed "), result.describe());
        result.readings("reading").forEach(window::assertContains);
        Map<String, Long> ticks = result.readings("ticks");
        assertTrue(ticks.get("after") > ticks.get("before"), "the ticker ticked meanwhile: " + ticks);
        assertEquals(1, result.stderr().size(), result.describe());
        assertTrue(AgentStderr.banner("tick=1ms wait=park cache=always " + InspectorJar.JAVA_REWRITER + " include="
                + PACKAGE + " exclude="
                + AgentStderr.NO_EXCLUDES).matcher(result.stderr().get(0)).matches(),
                result.describe());
        ClockReferences main = ClockReferences.in(ClassDump.readFrom(dumpDirectory).classFile("app", MAIN_CLASS));
        assertTrue(main.readsCachedClock() && !main.readsSystemClock(), "the threads' reads are rewritten: " + main);
    }
}
