package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.clockdefinition.agent.ClassLoadingAgent;
import io.clockagent.it.fixtures.clockdefinition.sites.ClockDefiningMain;
import io.clockagent.it.fixtures.clockdefinition.sites.LoadedAsTheClockIsDefined;
import io.clockagent.it.support.AgentStart;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.JarBuilder;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.WallClockWindow;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The JVM shows the cached clock's class, as clock-agent defines it, to every other agent's hook and transformer, on
 * the thread that defines it. Another agent that loads a class in scope there has clock-agent's hook asked for the
 * clock inside its own definition: the JVM must not hang, the service runs, and the class loaded meanwhile loads (at
 * worst unchanged, on the direct clock). Through each start, on JDK 17 and 25.
 */
class ClockDefinitionSeenByAnotherAgentTest {

    /** Far above the second a run takes: only a JVM that hangs reaches it. */
    private static final long HANG_SECONDS = 30;

    @TempDir
    static Path workDirectory;
    private static Path classLoadingAgentJar;

    @BeforeAll
    static void writeTheOtherAgentsJar() {
        classLoadingAgentJar = new JarBuilder()
                .manifestAttribute("Premain-Class", ClassLoadingAgent.class.getName())
                .addPackage(BuildOutputs.testClasses(), ClassLoadingAgent.class.getPackageName().replace('.', '/'))
                .writeTo(workDirectory.resolve("class-loading-agent.jar"));
    }

    @ParameterizedTest(name = "on JDK {0} through {1}")
    @MethodSource("io.clockagent.it.support.AgentStart#onJdks17And25")
    void anotherAgentLoadingAClassInScopeAsTheClockIsDefinedLeavesTheJvmRunning(int featureVersion,
            AgentStart start, @TempDir Path runDirectory) {
        ForkedJvm jvm = new ForkedJvm(Jdks.require(featureVersion), runDirectory).timeoutSeconds(HANG_SECONDS)
                .javaagent(classLoadingAgentJar, LoadedAsTheClockIsDefined.class.getName());
        long startMillis = System.currentTimeMillis();

        ForkResult result = start.addTo(jvm, "include=" + ClockDefiningMain.class.getPackageName())
                .classPath(BuildOutputs.testClasses())
                .runMain(ClockDefiningMain.class.getName());

        WallClockWindow window = new WallClockWindow(startMillis, System.currentTimeMillis());
        assertEquals(0, result.exitStatus(), result.describe());
        assertTrue(result.stdout().contains("class-loading-agent loaded " + LoadedAsTheClockIsDefined.class.getName()),
                "the other agent was shown the clock's definition and loaded the class\n" + result.describe());
        window.assertContains("main", result.readings("reading").get("main"));
        window.assertContains("the class loaded meanwhile", result.readings("reading").get("loaded"));
        List<String> agentLines = result.stderr().stream().filter(line -> line.startsWith("clock-agent: "))
                .collect(Collectors.toList());
        assertEquals(1, agentLines.size(), "the banner alone\n" + result.describe());
    }
}
