package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.parallel.ParallelLoadingMain;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ClassDump;
import io.clockagent.it.support.ClockReferences;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.GeneratedClocks;
import io.clockagent.it.support.InspectorJar;
import io.clockagent.it.support.JarBuilder;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.OnEachJdk;
import io.clockagent.it.support.WallClockWindow;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sixteen threads load a hundred clock classes through four loaders at once: no deadlock (the fixture gives up after
 * a bound far above the work, and says so), no failure, and every class each loader defines is rewritten.
 */
class ParallelClassLoadingTest {

    private static final String PACKAGE = "io.clockagent.it.fixtures.parallel.generated";
    private static final String PREFIX = PACKAGE + ".Clock";
    private static final int CLASSES = 100;
    private static final int LOADERS = 4;
    private static final int THREADS = 16;

    @TempDir
    static Path workDirectory;
    private static Path clocksJar;

    @BeforeAll
    static void writeJars() {
        JarBuilder clocks = new JarBuilder();
        for (int i = 0; i < CLASSES; i++) {
            String name = PREFIX + i;
            clocks.addEntry(name.replace('.', '/') + ".class",
                    GeneratedClocks.withClassFileVersion(name, Jdks.LOADED_BY_EVERY_JDK));
        }
        clocksJar = clocks.writeTo(workDirectory.resolve("clocks.jar"));
    }

    @OnEachJdk
    void sixteenThreadsLoadingThroughFourLoadersAllGetRewrittenClassesWithoutDeadlock(int featureVersion,
            @TempDir Path runDirectory) {
        Path dumpDirectory = runDirectory.resolve("dump");

        loadInParallel(new ForkedJvm(Jdks.require(featureVersion), runDirectory)
                .javaagent(BuildOutputs.agentJar(), "include=" + PACKAGE + "," + InspectorJar.JAVA_REWRITER)
                .javaagent(InspectorJar.path(), dumpDirectory.toString()),
                AgentStderr.javaRewriterBanner(PACKAGE, AgentStderr.NO_EXCLUDES));

        ClassDump dump = ClassDump.readFrom(dumpDirectory);
        List<Executable> checks = new ArrayList<>();
        for (int loader = 0; loader < LOADERS; loader++) {
            Map<String, byte[]> defined = dump.definedBy("parallel-" + loader);
            String label = "parallel-" + loader;
            checks.add(() -> assertEquals(CLASSES, defined.size(), label + " defined each class once"));
            defined.forEach((name, classFile) -> checks.add(() -> assertEquals(new ClockReferences(0, 0, 1, 0),
                    ClockReferences.in(classFile), label + "/" + name)));
        }
        assertAll(checks);
    }

    /**
     * The same loading with the default options, under which the native hook runs on all sixteen threads at once and
     * the first rewritten class defines the clock. The test agent cannot see what the native hook rewrites after it,
     * so this checks that nothing deadlocks, fails or prints; the rewriting itself is shown by NativeClassFilterTest
     * and NativeRewriterParityTest.
     */
    @OnEachJdk
    void underTheNativeHookNothingDeadlocksOrFails(int featureVersion, @TempDir Path runDirectory) {
        loadInParallel(new ForkedJvm(Jdks.require(featureVersion), runDirectory)
                .javaagent(BuildOutputs.agentJar(), "include=" + PACKAGE),
                AgentStderr.banner(PACKAGE, AgentStderr.NO_EXCLUDES));
    }

    /** Runs the loading in {@code jvm}: every call ran, none failed, and the agent printed its banner alone. */
    private static void loadInParallel(ForkedJvm jvm, Pattern banner) {
        long startMillis = System.currentTimeMillis();

        ForkResult result = jvm.classPath(BuildOutputs.testClasses())
                .runMain(ParallelLoadingMain.class.getName(), clocksJar.toString(), PREFIX,
                        Integer.toString(CLASSES), Integer.toString(LOADERS), Integer.toString(THREADS));

        WallClockWindow window = new WallClockWindow(startMillis, System.currentTimeMillis());
        assertEquals(0, result.exitStatus(), "3 means the threads were stuck\n" + result.describe());
        assertEquals("calls " + THREADS * CLASSES, result.stdoutLineStartingWith("calls "), result.describe());
        assertEquals("failures 0", result.stdoutLineStartingWith("failures "), result.describe());
        result.readings("reading").forEach(window::assertContains);
        assertEquals(1, result.stderr().size(), result.describe());
        assertTrue(banner.matcher(result.stderr().get(0)).matches(), result.describe());
    }
}
