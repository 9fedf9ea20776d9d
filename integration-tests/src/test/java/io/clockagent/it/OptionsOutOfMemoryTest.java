package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.options.OptionsProbeMain;
import io.clockagent.it.support.AgentEntry;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.PreloadLibrary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The native start keeps a copy of the agent arguments for its Java side, which reads them again with the Java parser.
 * Where memory runs out as it copies them, the agent is off with one line and the service runs as without it: a Java
 * side started without them would run with other options than those the banner states. The fault is injected by a
 * preloaded strdup ({@code src/test/c/failing_strdup.c}) that fails for the native library's copy of exactly these
 * options and for nothing else in the JVM. Through both entries, as {@code -javaagent} hands its options to the same C
 * start; on JDK 17 and 25, as the library loads one way below Java 24 and another from 24 on.
 */
class OptionsOutOfMemoryTest {

    private static final String OPTIONS = "include=" + OptionsProbeMain.class.getPackageName();
    private static final String PROPERTY = "clockagent.options";
    private static final String KILL_SWITCH = "enabled=false";
    private static final String OUT_OF_MEMORY = AgentStderr.OFF_PREFIX + "out of memory copying the options";

    @ParameterizedTest(name = "on JDK {0} through {1}")
    @MethodSource("io.clockagent.it.support.AgentEntry#onJdks17And25")
    void runningOutOfMemoryCopyingTheOptionsLeavesTheAgentOffWithOneLine(int featureVersion, AgentEntry entry,
            @TempDir Path runDirectory) throws IOException {
        Path failures = runDirectory.resolve("failures.log");
        ForkedJvm jvm = new ForkedJvm(Jdks.require(featureVersion), runDirectory)
                .environment("LD_PRELOAD", PreloadLibrary.build("failing_strdup").toString())
                .environment("FAILING_STRDUP_TEXT", OPTIONS)
                .environment("FAILING_STRDUP_LOG", failures.toString());

        ForkResult result = entry.addTo(jvm, OPTIONS)
                .option(OptionsProbeMain.CONSTANT_POOL_ACCESS)
                .classPath(BuildOutputs.testClasses())
                .runMain(OptionsProbeMain.class.getName(), OptionsProbeMain.REPORT_CONSTANT_POOL,
                        OptionsProbeMain.REPORT_AGENT_TRACES);

        assertEquals(List.of("failed strdup(\"" + OPTIONS + "\") from libclockagent.so"),
                Files.exists(failures) ? Files.readAllLines(failures) : List.of(),
                "the fault was injected once, into the library's copy of the options\n" + result.describe());
        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals(List.of(OUT_OF_MEMORY), result.stderr(), result.describe());
        assertTrue(result.stdout().containsAll(List.of("main ran", "cached clock defined false",
                "probe reads the cached clock false", "ticker threads 0", "agent MBean registered false",
                "agent threads []", "clockagent.active null")), "the service ran as without the agent\n"
                + result.describe());
    }

    /**
     * enabled=false in the system property turns the agent off where memory for a copy of the property's text is short:
     * a property the library cannot read must not pass for one not set. Through -agentpath, whose C start reads the
     * property from the JVM (from Java, Java reads it). The library now reads the JVM's own copy and makes none, so
     * the fault finds no strdup to fail; it stays armed against one coming back.
     */
    @ParameterizedTest(name = "on JDK {0}")
    @ValueSource(ints = {Jdks.JDK_17, Jdks.JDK_25})
    void enabledFalseInThePropertyTurnsTheAgentOffWhereMemoryForACopyIsShort(int featureVersion,
            @TempDir Path runDirectory) throws IOException {
        ForkedJvm jvm = new ForkedJvm(Jdks.require(featureVersion), runDirectory)
                .environment("LD_PRELOAD", PreloadLibrary.build("failing_strdup").toString())
                .environment("FAILING_STRDUP_TEXT", KILL_SWITCH)
                .environment("FAILING_STRDUP_LOG", runDirectory.resolve("failures.log").toString())
                .option("-D" + PROPERTY + "=" + KILL_SWITCH);

        ForkResult result = AgentEntry.AGENTPATH.addTo(jvm, OPTIONS)
                .option(OptionsProbeMain.CONSTANT_POOL_ACCESS)
                .classPath(BuildOutputs.testClasses())
                .runMain(OptionsProbeMain.class.getName(), OptionsProbeMain.REPORT_CONSTANT_POOL);

        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals(List.of(AgentStderr.turnedOff("system property " + PROPERTY)), result.stderr(),
                result.describe());
        assertTrue(result.stdout().containsAll(List.of("main ran", "cached clock defined false",
                "probe reads the cached clock false", "ticker threads 0")), result.describe());
    }
}
