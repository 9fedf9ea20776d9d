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
import io.clockagent.it.support.OnEachJdkThroughBothEntries;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Options come from the agent arguments (after {@code -javaagent:clock-agent.jar=} or
 * {@code -agentpath:libclockagent.so=}), the system property {@code clockagent.options} and the environment variable
 * {@code CLOCK_AGENT_OPTIONS}, merged key by key in that order of strength; the banner names the sources used, and a
 * bad option names its source. Through either entry: {@code -agentpath} reads them in C before any Java runs. Whether the probe was rewritten is read from the class the
 * JVM defined, not from anything the agent says.
 */
class OptionSourcesTest {

    private static final String PROBE_PACKAGE = OptionsProbeMain.class.getPackageName();
    private static final String PROPERTY = "clockagent.options";
    private static final String VARIABLE = "CLOCK_AGENT_OPTIONS";
    private static final String FROM_PROPERTY = "system property clockagent.options";
    private static final String FROM_AGENT_ARGUMENTS = "agent arguments";

    @OnEachJdkThroughBothEntries
    void theSystemPropertyAloneConfiguresTheAgentAndTheBannerSaysSo(int featureVersion, AgentEntry entry,
            @TempDir Path runDirectory) {
        Run run = new Run(featureVersion, runDirectory);
        entry.addTo(run.jvm.option("-D" + PROPERTY + "=tick=5ms,wait=spin,include=" + PROBE_PACKAGE), null);

        ForkResult result = run.probe();

        assertEquals(1, result.stderr().size(), result.describe());
        assertTrue(AgentStderr.banner("tick=5ms wait=spin include=" + PROBE_PACKAGE + " exclude=(none) (options from "
                + FROM_PROPERTY + ")").matcher(result.stderr().get(0)).matches(), result.describe());
        run.assertProbeRewritten(true);
    }

    @OnEachJdkThroughBothEntries
    void theEnvironmentVariableAloneConfiguresTheAgentAndTheBannerSaysSo(int featureVersion, AgentEntry entry,
            @TempDir Path runDirectory) {
        Run run = new Run(featureVersion, runDirectory);
        entry.addTo(run.jvm.environment(VARIABLE, "monotonic=true,include=" + PROBE_PACKAGE), null);

        ForkResult result = run.probe();

        assertEquals(1, result.stderr().size(), result.describe());
        assertTrue(AgentStderr.banner("tick=1ms wait=park monotonic=true include=" + PROBE_PACKAGE
                + " exclude=(none) (options from " + VARIABLE + ")").matcher(result.stderr().get(0)).matches(),
                result.describe());
        run.assertProbeRewritten(true);
    }

    /**
     * The environment includes the probe's package, the system property names another: that replaces the include
     * rather than adding to it, so the probe stays as it is. Each key comes from the strongest source that has it.
     */
    @OnEachJdkThroughBothEntries
    void eachKeyComesFromTheStrongestSourceThatSetsItAndReplacesAllItsWeakerValues(int featureVersion,
            AgentEntry entry, @TempDir Path runDirectory) {
        Run run = new Run(featureVersion, runDirectory);
        entry.addTo(run.jvm.environment(VARIABLE, "tick=4ms,wait=park,monotonic=true,include=" + PROBE_PACKAGE
                        + ",exclude=com.acme.legacy")
                .option("-D" + PROPERTY + "=tick=3ms,wait=spin,include=com.acme:org.example"), "tick=2ms");

        ForkResult result = run.probe();

        assertEquals(1, result.stderr().size(), result.describe());
        assertTrue(AgentStderr.banner("tick=2ms wait=spin monotonic=true include=com.acme:org.example"
                + " exclude=com.acme.legacy (options from " + FROM_AGENT_ARGUMENTS + ", " + FROM_PROPERTY + ", " + VARIABLE
                + ")").matcher(result.stderr().get(0)).matches(), result.describe());
        run.assertProbeRewritten(false);
    }

    @OnEachJdkThroughBothEntries
    void aBadOptionInTheEnvironmentVariableIsReportedNamingTheVariable(int featureVersion, AgentEntry entry,
            @TempDir Path runDirectory) {
        Run run = new Run(featureVersion, runDirectory);
        entry.addTo(run.jvm.environment(VARIABLE, "wait=sometimes"), "include=" + PROBE_PACKAGE);

        ForkResult result = run.probe();

        assertTurnedOffNaming(result, "'wait=sometimes' (from " + VARIABLE + ")", "park, spin");
        run.assertProbeRewritten(false);
    }

    @OnEachJdkThroughBothEntries
    void aBadOptionInTheSystemPropertyIsReportedNamingTheProperty(int featureVersion, AgentEntry entry,
            @TempDir Path runDirectory) {
        Run run = new Run(featureVersion, runDirectory);
        entry.addTo(run.jvm.option("-D" + PROPERTY + "=tick=fast"), null);

        ForkResult result = run.probe();

        assertTurnedOffNaming(result, "'tick=fast' (from " + FROM_PROPERTY + ")", "ns, us, ms or s");
        run.assertProbeRewritten(false);
    }

    /** The JVM announces the variable on stderr before the agent runs; the banner follows it. */
    @OnEachJdkThroughBothEntries
    void anAgentGivenInJavaToolOptionsRewritesAndPrintsItsBannerAfterTheJvmsNotice(int featureVersion,
            AgentEntry entry, @TempDir Path runDirectory) {
        String toolOptions = entry.option("include=" + PROBE_PACKAGE);
        Run run = new Run(featureVersion, runDirectory);
        run.jvm.environment("JAVA_TOOL_OPTIONS", toolOptions);

        ForkResult result = run.probe();

        assertEquals(List.of("Picked up JAVA_TOOL_OPTIONS: " + toolOptions), result.stderr().subList(0, 1),
                result.describe());
        assertEquals(2, result.stderr().size(), result.describe());
        assertTrue(AgentStderr.banner(PROBE_PACKAGE, AgentStderr.NO_EXCLUDES).matcher(result.stderr().get(1))
                .matches(), result.describe());
        assertCaching(result);
        run.assertProbeRewritten(true);
    }

    /**
     * A service started with the agent on its command line, in a shell that also sets it in JAVA_TOOL_OPTIONS, gets
     * one active copy: the first to start; the second says so and does nothing, whatever its options.
     */
    @OnEachJdkThroughBothEntries
    void anAgentInJavaToolOptionsAndAnotherOnTheCommandLineMakeOneActiveCopy(int featureVersion, AgentEntry entry,
            @TempDir Path runDirectory) {
        String toolOptions = entry.option("include=" + PROBE_PACKAGE);
        Run run = new Run(featureVersion, runDirectory);
        entry.addTo(run.jvm.environment("JAVA_TOOL_OPTIONS", toolOptions), "include=com.acme,tick=5ms");

        ForkResult result = run.probe();

        assertEquals(3, result.stderr().size(), result.describe());
        List<String> agentLines = result.stderr().subList(1, 3);
        assertEquals(1, agentLines.stream().filter(line -> AgentStderr.banner(PROBE_PACKAGE,
                AgentStderr.NO_EXCLUDES).matcher(line).matches()).count(), "the first copy's banner\n"
                + result.describe());
        // The -agentpath copy says so as the JVM loads it, before the first copy's banner, which comes with Java.
        assertTrue(agentLines.contains(entry == AgentEntry.JAVAAGENT
                ? "clock-agent: already active in this JVM; this copy does nothing"
                : "clock-agent: already active in this JVM; the -agentpath copy does nothing"), result.describe());
        assertCaching(result);
        run.assertProbeRewritten(true);
    }

    /**
     * The cached clock is defined; the ticker, which either entry's native start loads a second later, off the startup
     * path, is StderrBannerTest's and AgentPathTest's to wait for.
     */
    private static void assertCaching(ForkResult result) {
        assertTrue(result.stdout().contains("cached clock defined true"), result.describe());
    }

    private static void assertTurnedOffNaming(ForkResult result, String quotedTokenAndSource, String validForms) {
        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals(1, result.stderr().size(), "exactly one line\n" + result.describe());
        String line = result.stderr().get(0);
        assertTrue(line.startsWith(AgentStderr.OFF_PREFIX), line);
        assertTrue(line.contains(quotedTokenAndSource), "names " + quotedTokenAndSource + ": " + line);
        assertTrue(line.contains(validForms), "states the valid forms (" + validForms + "): " + line);
        assertTrue(result.stdout().containsAll(List.of("cached clock defined false", "ticker threads 0")),
                result.describe());
    }

    /**
     * One run of the options probe, which reports from its own constant pool, as the JVM defined it, whether it reads
     * the cached clock: an inspecting agent cannot see the class after the native start's hook, which every
     * {@code -javaagent}'s transformers precede, as the JVM calls its environments in the order they were created.
     */
    /**
     * The Java side parses the very texts the C half parsed, not the sources read again: here the service set the
     * property to a bad option in the second before the Java side loaded, which then refused it and started no ticker
     * ("the ticker did not start, so reads take the direct clock: bad value in 'wait=sometimes'").
     */
    @ParameterizedTest(name = "on JDK {0} through {1}")
    @MethodSource("io.clockagent.it.support.AgentEntry#onJdks17And25")
    void theJavaSideRunsWithTheOptionsTheCHalfRead(int featureVersion, AgentEntry entry, @TempDir Path runDirectory) {
        Run run = new Run(featureVersion, runDirectory);
        entry.addTo(run.jvm.option("-D" + PROPERTY + "=include=" + PROBE_PACKAGE), null);

        ForkResult result = run.jvm.classPath(BuildOutputs.testClasses()).runMain(OptionsProbeMain.class.getName(),
                OptionsProbeMain.SPOIL_OPTIONS_PROPERTY, OptionsProbeMain.AWAIT_TICKER);

        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals(1, result.stderr().size(), "the banner alone\n" + result.describe());
        assertTrue(result.stdout().contains("ticker threads 1"), result.describe());
    }

    private static final class Run {

        final ForkedJvm jvm;
        private ForkResult lastResult;

        Run(int featureVersion, Path runDirectory) {
            this.jvm = new ForkedJvm(Jdks.require(featureVersion), runDirectory);
        }

        ForkResult probe() {
            ForkResult result = jvm
                    .option(OptionsProbeMain.CONSTANT_POOL_ACCESS)
                    .classPath(BuildOutputs.testClasses())
                    .runMain(OptionsProbeMain.class.getName(), OptionsProbeMain.REPORT_CONSTANT_POOL);
            assertEquals(0, result.exitStatus(), result.describe());
            lastResult = result;
            return result;
        }

        void assertProbeRewritten(boolean rewritten) {
            assertTrue(lastResult.stdout().contains("probe reads the cached clock " + rewritten),
                    (rewritten ? "the probe should read the cached clock\n"
                            : "the probe should read the clock as it was written\n") + lastResult.describe());
        }
    }
}
