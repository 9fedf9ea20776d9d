package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.attach.AttachTargetMain;
import io.clockagent.it.fixtures.options.OptionsProbeMain;
import io.clockagent.it.support.AgentEntry;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.DistinctMillis;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdk;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.LiveJvm;
import io.clockagent.it.support.OnEachJdk;
import io.clockagent.it.support.OnEachJdkThroughBothEntries;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code quiet=true}, for a fleet whose scripts read what {@code java} and its tools print: the agent starts and
 * serves with no line at all (no banner, no line for a {@code clocks} entry left out, none for a second copy, none for
 * {@code enabled=false}), through {@code -javaagent} (its native and its Java start), {@code -agentpath} and
 * {@code attach}; what another option asks for still prints, and so does a bad option's line, which says the agent
 * is off. That the MBean and the report say everything under it is {@code SavedCpuFiguresTest}'s.
 */
class QuietTest {

    private static final String PROBE_PACKAGE = OptionsProbeMain.class.getPackageName();
    private static final String QUIET = "quiet=true,include=" + PROBE_PACKAGE;
    /** A clocks entry left out, which prints a line after the banner unless quiet. */
    private static final String LEFT_OUT_CLOCK = "clocks=com.acme.SystemClock";

    @OnEachJdkThroughBothEntries
    void theAgentCachesWithNoLineWhereItWouldPrintTheBannerAndAWarning(int featureVersion, AgentEntry entry,
            @TempDir Path runDirectory) {
        ForkResult result = probe(entry.addTo(new ForkedJvm(Jdks.require(featureVersion), runDirectory),
                QUIET + "," + LEFT_OUT_CLOCK));

        assertEquals(List.of(), result.stderr(), result.describe());
        assertServing(result);
    }

    /** nativeFilter=false takes the Java start of -javaagent, which prints through its own log. */
    @OnEachJdk
    void theJavaStartIsAsQuiet(int featureVersion, @TempDir Path runDirectory) {
        ForkResult result = probe(new ForkedJvm(Jdks.require(featureVersion), runDirectory)
                .javaagent(BuildOutputs.agentJar(), QUIET + "," + LEFT_OUT_CLOCK + ",nativeFilter=false"));

        assertEquals(List.of(), result.stderr(), result.describe());
        assertServing(result);
    }

    /** The line that a per-pod enabled=false prints would reach every script as well: quiet leaves it out too. */
    @OnEachJdkThroughBothEntries
    void enabledFalseFromTheEnvironmentTurnsAQuietAgentOffWithoutALine(int featureVersion, AgentEntry entry,
            @TempDir Path runDirectory) {
        ForkResult result = probe(entry.addTo(new ForkedJvm(Jdks.require(featureVersion), runDirectory)
                .environment("CLOCK_AGENT_OPTIONS", "enabled=false"), QUIET));

        assertEquals(List.of(), result.stderr(), result.describe());
        assertTrue(result.stdout().containsAll(List.of("cached clock defined false", "ticker threads 0")),
                result.describe());
    }

    /** The -agentpath copy, and then the second -javaagent copy, stand down for the first without a word. */
    @ParameterizedTest(name = "nativeFilter={0}")
    @ValueSource(booleans = {true, false})
    void aSecondCopyStandsDownWithoutALine(boolean nativeFilter, @TempDir Path runDirectory) {
        String options = QUIET + ",nativeFilter=" + nativeFilter;
        ForkedJvm jvm = new ForkedJvm(Jdks.require(Jdks.TESTED.get(Jdks.TESTED.size() - 1)), runDirectory);
        ForkResult result = probe(AgentEntry.AGENTPATH.addTo(jvm.javaagent(BuildOutputs.agentJar(), options)
                .javaagent(BuildOutputs.agentJar(), options), QUIET));

        assertEquals(List.of(), result.stderr(), result.describe());
        assertServing(result);
    }

    /** A bad option turns the agent off; the operator must hear of that, quiet or not. */
    @OnEachJdkThroughBothEntries
    void aBadOptionStillSaysTheAgentIsOff(int featureVersion, AgentEntry entry, @TempDir Path runDirectory) {
        ForkResult result = probe(entry.addTo(new ForkedJvm(Jdks.require(featureVersion), runDirectory),
                QUIET + ",tick=fast"));

        assertEquals(1, result.stderr().size(), result.describe());
        assertTrue(result.stderr().get(0).startsWith(AgentStderr.OFF_PREFIX + "bad duration 'tick=fast'"),
                result.describe());
    }

    /** What an option asks to be told is not silenced: report=summary's lines come, and no banner before them. */
    @OnEachJdkThroughBothEntries
    void reportSummaryStillPrintsItsLines(int featureVersion, AgentEntry entry, @TempDir Path runDirectory) {
        ForkResult result = probe(entry.addTo(new ForkedJvm(Jdks.require(featureVersion), runDirectory),
                QUIET + ",report=summary"));

        assertTrue(result.stderr().size() >= 3, result.describe());
        assertTrue(result.stderr().stream().allMatch(line -> line.startsWith("clock-agent: report: ")),
                result.describe());
    }

    /** Through the jar's attach, native and Java: the target prints nothing, and the ticker starts. */
    @ParameterizedTest(name = "nativeFilter={0}")
    @ValueSource(booleans = {true, false})
    void anAttachedQuietAgentSaysNothingInTheTarget(boolean nativeFilter, @TempDir Path runDirectory) {
        Jdk jdk = Jdks.require(Jdks.TESTED.get(Jdks.TESTED.size() - 1));
        try (LiveJvm target = new ForkedJvm(jdk, runDirectory)
                .option("-XX:+EnableDynamicAgentLoading")
                .classPath(BuildOutputs.testClasses())
                .startMain(AttachTargetMain.class.getName())) {
            target.awaitLine("ready");

            // tick=1s and cache=always, for the probe to tell a cached site from a direct one by its changes.
            ForkResult cli = new ForkedJvm(jdk, runDirectory).runJar(BuildOutputs.agentJar(), "attach",
                    Long.toString(target.pid()), "quiet=true,cache=always,tick=1s,nativeFilter=" + nativeFilter
                            + ",include=" + AttachTargetMain.class.getPackageName());

            assertEquals(0, cli.exitStatus(), cli.describe());
            DistinctMillis.parse(target.ask("early", "early")).assertCached("EarlyClock, retransformed at the attach");
            assertEquals("tickers 1", target.ask("tickers", "tickers"), target.describe());
            ForkResult end = target.finish();
            assertEquals(0, end.exitStatus(), end.describe());
            assertEquals(List.of(), end.stderr(), "the target printed nothing of the agent\n" + end.describe());
        }
    }

    private static ForkResult probe(ForkedJvm jvm) {
        ForkResult result = jvm.option(OptionsProbeMain.CONSTANT_POOL_ACCESS)
                .classPath(BuildOutputs.testClasses())
                .runMain(OptionsProbeMain.class.getName(), OptionsProbeMain.REPORT_CONSTANT_POOL,
                        OptionsProbeMain.AWAIT_TICKER);
        assertEquals(0, result.exitStatus(), result.describe());
        return result;
    }

    /**
     * The probe's reads go to the cached clock and one ticker runs. The MBean, whose registration runs on a thread of
     * its own, is SavedCpuFiguresTest's, quiet too.
     */
    private static void assertServing(ForkResult result) {
        assertTrue(result.stdout().containsAll(List.of("cached clock defined true", "probe reads the cached clock true",
                "ticker threads 1")), result.describe());
    }
}
