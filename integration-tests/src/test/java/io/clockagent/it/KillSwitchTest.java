package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.attach.AttachTargetMain;
import io.clockagent.it.fixtures.options.OptionsProbeMain;
import io.clockagent.it.support.AgentEntry;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdk;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.LiveJvm;
import io.clockagent.it.support.OnEachJdk;
import io.clockagent.it.support.OnEachJdkThroughBothEntries;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code enabled=false}, the kill switch: from any option source it turns the agent off, whatever the stronger
 * sources say, so that an operator can switch off an agent baked into an image's command line through the
 * environment. The agent then prints one line naming the source and does nothing else: the probe reads
 * {@code System.currentTimeMillis()} as written (read from the class the JVM defined, not from the agent), no cached
 * clock, no thread of the agent's, no MBean once JMX starts, no claim on the JVM. Through either entry, and through
 * {@code attach}.
 */
class KillSwitchTest {

    private static final String PROBE_PACKAGE = OptionsProbeMain.class.getPackageName();
    private static final String INCLUDE_PROBE = "include=" + PROBE_PACKAGE;
    private static final String PROPERTY = "clockagent.options";
    private static final String VARIABLE = "CLOCK_AGENT_OPTIONS";
    private static final String FROM_PROPERTY = "system property clockagent.options";
    private static final String FROM_AGENT_ARGUMENTS = "agent arguments";
    private static final String OFF = "enabled=false";

    @OnEachJdkThroughBothEntries
    void theEnvironmentVariableTurnsOffAnAgentBakedIntoTheCommandLine(int featureVersion, AgentEntry entry,
            @TempDir Path runDirectory) {
        ForkedJvm jvm = new ForkedJvm(Jdks.require(featureVersion), runDirectory).environment(VARIABLE, OFF);

        ForkResult result = probe(entry.addTo(jvm, "enabled=true," + INCLUDE_PROBE), true);

        assertOff(result, VARIABLE);
        assertNoTraces(result);
    }

    @OnEachJdkThroughBothEntries
    void theSystemPropertyTurnsTheAgentOff(int featureVersion, AgentEntry entry, @TempDir Path runDirectory) {
        ForkedJvm jvm = new ForkedJvm(Jdks.require(featureVersion), runDirectory).option("-D" + PROPERTY + "=" + OFF);

        ForkResult result = probe(entry.addTo(jvm, INCLUDE_PROBE), true);

        assertOff(result, FROM_PROPERTY);
        assertNoTraces(result);
    }

    @OnEachJdkThroughBothEntries
    void enabledFalseInTheAgentArgumentsTurnsTheAgentOff(int featureVersion, AgentEntry entry,
            @TempDir Path runDirectory) {
        ForkedJvm jvm = new ForkedJvm(Jdks.require(featureVersion), runDirectory);

        ForkResult result = probe(entry.addTo(jvm, INCLUDE_PROBE + "," + OFF), true);

        assertOff(result, FROM_AGENT_ARGUMENTS);
        assertNoTraces(result);
    }

    /** An operator switching the agent off wants it off: no bad option's line, and strict=true stops nothing. */
    @OnEachJdkThroughBothEntries
    void offWinsOverBadOptionsAndStrictInEverySource(int featureVersion, AgentEntry entry,
            @TempDir Path runDirectory) {
        ForkedJvm jvm = new ForkedJvm(Jdks.require(featureVersion), runDirectory)
                .option("-D" + PROPERTY + "=tick=fast")
                .environment(VARIABLE, OFF + ",wait=sometimes");

        ForkResult result = probe(entry.addTo(jvm, "strict=true,colour=blue," + INCLUDE_PROBE), false);

        assertOff(result, VARIABLE);
    }

    /**
     * nativeFilter=false asks {@code -javaagent} for the Java start, which reads the environment itself; the native
     * start's C half, which hands over to it, finds enabled=false first.
     */
    @OnEachJdkThroughBothEntries
    void offWinsWhereNativeFilterFalseAsksForTheJavaStart(int featureVersion, AgentEntry entry,
            @TempDir Path runDirectory) {
        ForkedJvm jvm = new ForkedJvm(Jdks.require(featureVersion), runDirectory).environment(VARIABLE, OFF);

        ForkResult result = probe(entry.addTo(jvm, "nativeFilter=false," + INCLUDE_PROBE), false);

        assertOff(result, VARIABLE);
    }

    /** The control: enabled=true is the default, accepted by both parsers, and the same probe sees the agent. */
    @OnEachJdkThroughBothEntries
    void enabledTrueLeavesTheAgentOn(int featureVersion, AgentEntry entry, @TempDir Path runDirectory) {
        ForkedJvm jvm = new ForkedJvm(Jdks.require(featureVersion), runDirectory);

        ForkResult result = entry.addTo(jvm, "enabled=true," + INCLUDE_PROBE)
                .option(OptionsProbeMain.CONSTANT_POOL_ACCESS)
                .classPath(BuildOutputs.testClasses())
                .runMain(OptionsProbeMain.class.getName(), OptionsProbeMain.REPORT_CONSTANT_POOL,
                        OptionsProbeMain.AWAIT_TICKER);

        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals(1, result.stderr().size(), result.describe());
        assertTrue(AgentStderr.banner(PROBE_PACKAGE, AgentStderr.NO_EXCLUDES).matcher(result.stderr().get(0))
                .matches(), result.describe());
        assertTrue(result.stdout().containsAll(List.of("cached clock defined true", "probe reads the cached clock true",
                "ticker threads 1")), result.describe());
    }

    /** Nothing is loaded into the target: from JDK 21 on it would warn of a dynamically loaded agent. */
    @OnEachJdk
    void attachWithEnabledFalseAttachesNothingAndSucceeds(int featureVersion, @TempDir Path runDirectory) {
        Jdk jdk = Jdks.require(featureVersion);
        try (LiveJvm target = new ForkedJvm(jdk, runDirectory)
                .classPath(BuildOutputs.testClasses())
                .startMain(AttachTargetMain.class.getName())) {
            target.awaitLine("ready");

            ForkResult cli = new ForkedJvm(jdk, runDirectory).runJar(BuildOutputs.agentJar(), "attach",
                    Long.toString(target.pid()), INCLUDE_PROBE + "," + OFF);

            assertEquals(0, cli.exitStatus(), cli.describe());
            assertEquals(List.of("clock-agent: nothing attached to " + target.pid()
                    + ": enabled=false turns the agent off"), cli.stdout(), cli.describe());
            assertEquals(List.of(), cli.stderr(), cli.describe());
            assertEquals("tickers 0", target.ask("tickers", "tickers"), target.describe());
            ForkResult end = target.finish();
            assertEquals(0, end.exitStatus(), end.describe());
            assertEquals(List.of(), end.stderr(), "the target heard nothing of the agent\n" + end.describe());
        }
    }

    /** The switch holds against a later attach too: the attached copy reads the target's own sources. */
    @OnEachJdk
    void anAttachToAJvmSwitchedOffInItsEnvironmentSaysSoOnItsStderr(int featureVersion,
            @TempDir Path runDirectory) {
        Jdk jdk = Jdks.require(featureVersion);
        try (LiveJvm target = new ForkedJvm(jdk, runDirectory)
                .environment(VARIABLE, OFF)
                .option("-XX:+EnableDynamicAgentLoading")
                .classPath(BuildOutputs.testClasses())
                .startMain(AttachTargetMain.class.getName())) {
            target.awaitLine("ready");

            ForkResult cli = new ForkedJvm(jdk, runDirectory).runJar(BuildOutputs.agentJar(), "attach",
                    Long.toString(target.pid()), INCLUDE_PROBE);

            assertEquals(0, cli.exitStatus(), cli.describe());
            assertEquals("tickers 0", target.ask("tickers", "tickers"), target.describe());
            ForkResult end = target.finish();
            assertEquals(0, end.exitStatus(), end.describe());
            assertEquals(List.of(AgentStderr.turnedOff(VARIABLE)), end.stderr(), end.describe());
        }
    }

    /** The options probe, asked whether it reads the cached clock and, with {@code traces}, for the agent's traces. */
    private static ForkResult probe(ForkedJvm jvm, boolean traces) {
        ForkResult result = jvm.option(OptionsProbeMain.CONSTANT_POOL_ACCESS)
                .classPath(BuildOutputs.testClasses())
                .runMain(OptionsProbeMain.class.getName(), traces
                        ? new String[] {OptionsProbeMain.REPORT_CONSTANT_POOL, OptionsProbeMain.REPORT_AGENT_TRACES}
                        : new String[] {OptionsProbeMain.REPORT_CONSTANT_POOL});
        assertEquals(0, result.exitStatus(), result.describe());
        return result;
    }

    /** Exactly the off line, no bad option's line, and the probe's clock reads go to java.lang.System. */
    private static void assertOff(ForkResult result, String source) {
        assertEquals(List.of(AgentStderr.turnedOff(source)), result.stderr(), result.describe());
        assertTrue(result.stdout().containsAll(List.of("main ran", "cached clock defined false",
                "probe reads the cached clock false", "ticker threads 0")), result.describe());
    }

    private static void assertNoTraces(ForkResult result) {
        assertTrue(result.stdout().containsAll(List.of("agent MBean registered false", "agent threads []",
                "clockagent.active null")), result.describe());
    }
}
