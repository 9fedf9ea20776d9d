package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.attach.AttachTargetMain;
import io.clockagent.it.fixtures.options.OptionsProbeMain;
import io.clockagent.it.support.AgentEntry;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ClassLoadLog;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdk;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.LiveJvm;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * On a Java release below the agent's floor (8, 9, 10) the agent stays off with one stderr line, and the service runs
 * exactly as it would without it. No JDK 8 can be had on the build machines, so these run JDK 11 told to report an
 * older release: JDK 11 lets the command line set {@code java.specification.version}, which is what the agent's entry
 * class judges by (JDK 17 and later ignore such a setting), and the {@code -agentpath} entry's C half too where it is
 * given. The class-load log then shows that the JVM loaded nothing of the agent but its one class file compiled for
 * Java 8 (through {@code -agentpath}, nothing at all), so a real Java 8, which could load nothing else of it, takes the
 * same path.
 */
class OlderJavaTest {

    private static final List<String> JAVA_8_ENTRY_CLASSES = List.of("io.clockagent.agent.ClockAgent");

    @ParameterizedTest(name = "as Java {1} through {2}")
    @CsvSource({"1.8, 8, JAVAAGENT", "9, 9, JAVAAGENT", "10, 10, JAVAAGENT", "1.8, 8, AGENTPATH", "10, 10, AGENTPATH"})
    void theServiceRunsAsWithoutTheAgentAfterOneLine(String specificationVersion, int feature, AgentEntry entry,
            @TempDir Path runDirectory) {
        Jdk jdk = Jdks.require(Jdks.JDK_11);
        ClassLoadLog classLoads = new ClassLoadLog(runDirectory.resolve("class-load.log"));

        ForkResult withAgent = entry.addTo(olderJava(jdk, specificationVersion, runDirectory)
                .classPath(BuildOutputs.testClasses())
                .option(classLoads.jvmOption()), "include=io.clockagent.it.fixtures")
                .runMain(OptionsProbeMain.class.getName());
        ForkResult without = olderJava(jdk, specificationVersion, runDirectory)
                .classPath(BuildOutputs.testClasses())
                .runMain(OptionsProbeMain.class.getName());

        assertEquals(0, withAgent.exitStatus(), withAgent.describe());
        assertEquals(List.of("clock-agent: off, the service runs without it: Java " + feature
                + " is not supported (11 or later is)"), withAgent.stderr(), withAgent.describe());
        assertEquals(without.stdout(), withAgent.stdout(), "the service's output is as without the agent");
        // The -agentpath entry judges the release in C and loads nothing of the jar.
        assertEquals(entry == AgentEntry.JAVAAGENT ? JAVA_8_ENTRY_CLASSES : List.of(),
                classLoads.classesFrom(BuildOutputs.agentJar().getFileName().toString()),
                "the only classes loaded from the agent jar");
    }

    @ParameterizedTest(name = "strict=true from {0} through {3}")
    @CsvSource({"the agent arguments, strict=true, , JAVAAGENT", "CLOCK_AGENT_OPTIONS, , strict=true, JAVAAGENT",
            "the agent arguments, strict=true, , AGENTPATH", "CLOCK_AGENT_OPTIONS, , strict=true, AGENTPATH"})
    void withStrictTheJvmStopsWithStatusOneBeforeMain(String source, String agentOptions, String variable,
            AgentEntry entry, @TempDir Path runDirectory) {
        ForkedJvm jvm = entry.addTo(olderJava(Jdks.require(Jdks.JDK_11), "1.8", runDirectory)
                .classPath(BuildOutputs.testClasses()), agentOptions);
        if (variable != null) {
            jvm.environment("CLOCK_AGENT_OPTIONS", variable);
        }

        ForkResult result = jvm.runMain(OptionsProbeMain.class.getName());

        assertEquals(1, result.exitStatus(), result.describe());
        assertEquals(List.of(), result.stdout(), "main never ran");
        assertEquals(List.of("clock-agent: unsupported Java, stopping the JVM (strict=true): Java 8 is not supported"
                + " (11 or later is)"), result.stderr(), result.describe());
    }

    /**
     * An operator's enabled=false comes before the floor: the JVM starts, with the line of an agent switched off, even
     * where strict=true would stop it for the release; the environment variable too, which premain reads only here.
     */
    @ParameterizedTest(name = "through {0}")
    @EnumSource(AgentEntry.class)
    void enabledFalseWinsOverTheFloorAndStrict(AgentEntry entry, @TempDir Path runDirectory) {
        ForkedJvm jvm = entry.addTo(olderJava(Jdks.require(Jdks.JDK_11), "1.8", runDirectory)
                .classPath(BuildOutputs.testClasses())
                .environment("CLOCK_AGENT_OPTIONS", "enabled=false"), "strict=true");

        ForkResult result = jvm.runMain(OptionsProbeMain.class.getName());

        assertEquals(0, result.exitStatus(), result.describe());
        assertTrue(result.stdout().contains("main ran"), result.describe());
        assertEquals(List.of(AgentStderr.turnedOff("CLOCK_AGENT_OPTIONS")), result.stderr(), result.describe());
    }

    @ParameterizedTest(name = "java -jar clock-agent.jar {0}")
    @CsvSource({"--version", "doctor", "help"})
    void theCommandsRefuseWithOneLine(String command, @TempDir Path runDirectory) {
        ForkResult result = olderJava(Jdks.require(Jdks.JDK_11), "9", runDirectory)
                .runJar(BuildOutputs.agentJar(), command);

        assertEquals(1, result.exitStatus(), result.describe());
        assertEquals(List.of("clock-agent: Java 9 is not supported (11 or later is)"), result.stderr(),
                result.describe());
        assertEquals(List.of(), result.stdout(), result.describe());
    }

    @Test
    void attachingLeavesTheRunningServiceAsItWasAfterOneLine(@TempDir Path runDirectory) {
        Jdk jdk = Jdks.require(Jdks.JDK_11);
        try (LiveJvm target = olderJava(jdk, "1.8", runDirectory)
                .classPath(BuildOutputs.testClasses())
                .startMain(AttachTargetMain.class.getName())) {
            target.awaitLine("ready");

            ForkResult cli = new ForkedJvm(jdk, runDirectory)
                    .runJar(BuildOutputs.agentJar(), "attach", Long.toString(target.pid()));

            assertEquals(0, cli.exitStatus(), cli.describe());
            assertEquals(List.of("clock-agent: off, the service runs without it: Java 8 is not supported (11 or later"
                    + " is)"), target.stderr(), target.describe());
            assertEquals("tickers 0", target.ask("tickers", "tickers "), target.describe());
        }
    }

    private static ForkedJvm olderJava(Jdk jdk, String specificationVersion, Path runDirectory) {
        return new ForkedJvm(jdk, runDirectory)
                .option("-Djava.specification.version=" + specificationVersion);
    }
}
