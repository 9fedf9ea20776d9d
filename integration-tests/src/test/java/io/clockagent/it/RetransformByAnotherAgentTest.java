package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.retransform.RetransformedSitesMain;
import io.clockagent.it.fixtures.retransform.agent.RetransformingAgent;
import io.clockagent.it.support.AgentStart;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.DistinctMillis;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.JarBuilder;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.OperableService;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Another agent that retransforms classes in scope shows each of them to clock-agent again, from the bytes it was
 * loaded from: clock-agent rewrites it again, or the rewrite would be lost, but counts it once. The report states
 * the counts of a run in which no class was retransformed, and the class still reads the cached clock. Through each
 * start: the C hook of the native start ({@code -agentpath}, and {@code -javaagent}'s premain) and the Java
 * transformer of the Java start.
 */
class RetransformByAnotherAgentTest {

    private static final int RETRANSFORMS = 3;
    /** The report's counts line of the operability fixture's {@code sites}, loaded once and retransformed by nobody. */
    private static final String COUNTS_LINE = "clock-agent: report: " + OperableService.CLASSES_SCANNED
            + " classes scanned, " + OperableService.CLASSES_REWRITTEN + " rewritten, 0 failed; "
            + OperableService.CALL_SITES + " call sites and " + OperableService.METHOD_REFERENCES
            + " method references";

    @TempDir
    static Path workDirectory;
    private static Path retransformingAgentJar;

    @BeforeAll
    static void writeTheOtherAgentsJar() {
        OperableService.assertTableMatchesClassFiles();
        retransformingAgentJar = new JarBuilder()
                .manifestAttribute("Premain-Class", RetransformingAgent.class.getName())
                .manifestAttribute("Can-Retransform-Classes", "true")
                .addPackage(BuildOutputs.testClasses(), RetransformingAgent.class.getPackageName().replace('.', '/'))
                .writeTo(workDirectory.resolve("retransforming-agent.jar"));
    }

    @ParameterizedTest(name = "on JDK {0} through {1}")
    @MethodSource("io.clockagent.it.support.AgentStart#onJdks17And25")
    void classesAnotherAgentRetransformsAreCountedOnceAndStillReadTheCachedClock(int featureVersion,
            AgentStart start, @TempDir Path runDirectory) {
        ForkedJvm jvm = start.addTo(new ForkedJvm(Jdks.require(featureVersion), runDirectory),
                OperableService.INCLUDE_SITES + ",tick=1s,cache=always,report=summary")
                .javaagent(retransformingAgentJar, null);

        ForkResult result = jvm.classPath(BuildOutputs.testClasses())
                .runMain(RetransformedSitesMain.class.getName(), Integer.toString(RETRANSFORMS));

        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals(List.of("sites read", "retransformed " + RETRANSFORMS + " times"),
                result.stdout().subList(0, Math.min(2, result.stdout().size())), result.describe());
        List<String> counts = result.stderr().stream().filter(line -> line.contains(" classes scanned, "))
                .collect(Collectors.toList());
        assertEquals(List.of(COUNTS_LINE), counts, "the counts of a run without retransforms\n" + result.describe());
        assertTrue(DistinctMillis.parse(result.stdoutLineStartingWith("probe ")).cached(),
                "the retransformed class reads the cached clock\n" + result.describe());
    }
}
