package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.options.OptionsProbeMain;
import io.clockagent.it.support.AgentEntry;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ClassDump;
import io.clockagent.it.support.ClassFiles;
import io.clockagent.it.support.ClockReferences;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.InspectorJar;
import io.clockagent.it.support.Jdk;
import io.clockagent.it.support.Jdks;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A bad option turns the agent off with exactly one stderr line naming the offending token, and the service runs
 * as if the agent were absent: same output, no cached clock, no ticker, no class rewritten. With {@code strict=true}
 * it stops the JVM with status 1 before {@code main}. Through either entry.
 */
class BadOptionsTest {

    private static final String PROBE = OptionsProbeMain.class.getName().replace('.', '/');

    private static final List<BadOption> BAD_OPTIONS = List.of(
            new BadOption("colour=blue", "'colour'",
                    "valid keys: include, exclude, cachedInstants, libraryClocks, clocks, tick"),
            new BadOption("include=com.acme,colour=blue", "'colour'", "valid keys"),
            new BadOption("verbose", "'verbose'", "valid keys"),
            new BadOption("tick=1ms,,verbose=true", "'tick=1ms,,verbose=true'", "key=value pairs"),
            new BadOption("tick=fast", "'tick=fast'", "whole number with a unit ns, us, ms or s"),
            new BadOption("tick=2s", "'tick=2s'", "from 1ms to 1s"),
            new BadOption("tick=500us", "'tick=500us'", "from 1ms to 1s"),
            new BadOption("tick=1ms,tick=2ms", "'tick=2ms'", "only once"),
            new BadOption("include=", "'include='", "a package name such as com.acme"),
            new BadOption("include=com..acme", "'com..acme'", "a package name such as com.acme"),
            new BadOption("exclude=com.acme:", "'exclude=com.acme:'", "a package name such as com.acme"),
            new BadOption("include=java.util", "'java.util'", "name your own packages"),
            new BadOption("cachedInstants=java.time", "'java.time'", "name your own packages"),
            new BadOption("verbose=yes", "'verbose=yes'", "valid values: true, false"),
            new BadOption("enabled=off", "'enabled=off'", "valid values: true, false"),
            new BadOption("wait=sleep", "'wait=sleep'", "valid values: park, spin"));

    private static final List<BadOption> STRICT_BAD_OPTIONS = List.of(
            new BadOption("strict=true,colour=blue", "'colour'", "valid keys"),
            new BadOption("tick=0ms,strict=true", "'tick=0ms'", "from 1ms to 1s"));

    @TempDir
    static Path workDirectory;
    private static final Map<Integer, ForkResult> RUNS_WITHOUT_AGENT = new HashMap<>();

    static Stream<Arguments> badOptionsOnEachJdk() {
        return onEachJdk(BAD_OPTIONS);
    }

    static Stream<Arguments> strictBadOptionsOnEachJdk() {
        return onEachJdk(STRICT_BAD_OPTIONS);
    }

    @ParameterizedTest(name = "on JDK {0} through {1}: {2}")
    @MethodSource("badOptionsOnEachJdk")
    void aBadOptionTurnsTheAgentOffWithOneStderrLineAndTheServiceRunsUnchanged(int featureVersion, AgentEntry entry,
            BadOption bad, @TempDir Path runDirectory) {
        Jdk jdk = Jdks.require(featureVersion);
        Path dumpDirectory = runDirectory.resolve("dump");

        ForkResult result = entry.addTo(new ForkedJvm(jdk, runDirectory), bad.options())
                .javaagent(InspectorJar.path(), dumpDirectory.toString())
                .classPath(BuildOutputs.testClasses())
                .runMain(OptionsProbeMain.class.getName());

        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals(1, result.stderr().size(), "exactly one line\n" + result.describe());
        String line = result.stderr().get(0);
        assertTrue(line.startsWith(AgentStderr.OFF_PREFIX), line);
        assertTrue(line.contains(bad.quotedToken()), "names the token " + bad.quotedToken() + ": " + line);
        assertTrue(line.contains(bad.validForms()), "states the valid forms (" + bad.validForms() + "): " + line);
        assertEquals(runWithoutAgent(jdk).stdout(), result.stdout(), "the service's output is as without the agent");
        ClassDump dump = ClassDump.readFrom(dumpDirectory);
        assertArrayEquals(ClassFiles.read(BuildOutputs.testClasses(), PROBE), dump.classFile("app", PROBE),
                "the probe, which reads the clock, is defined from its original bytes");
        dump.all().forEach((name, bytes) ->
                assertFalse(ClockReferences.in(bytes).readsCachedClock(), name + " was rewritten"));
    }

    @ParameterizedTest(name = "on JDK {0} through {1}: {2}")
    @MethodSource("strictBadOptionsOnEachJdk")
    void withStrictABadOptionStopsTheJvmWithStatusOneBeforeMain(int featureVersion, AgentEntry entry, BadOption bad,
            @TempDir Path runDirectory) {
        Jdk jdk = Jdks.require(featureVersion);

        ForkResult result = entry.addTo(new ForkedJvm(jdk, runDirectory), bad.options())
                .classPath(BuildOutputs.testClasses())
                .runMain(OptionsProbeMain.class.getName());

        assertEquals(1, result.exitStatus(), result.describe());
        assertEquals(List.of(), result.stdout(), "main never ran");
        assertEquals(1, result.stderr().size(), "exactly one line\n" + result.describe());
        String line = result.stderr().get(0);
        assertTrue(line.startsWith(AgentStderr.STRICT_STOP_PREFIX), line);
        assertTrue(line.contains(bad.quotedToken()), "names the token " + bad.quotedToken() + ": " + line);
        assertTrue(line.contains(bad.validForms()), "states the valid forms (" + bad.validForms() + "): " + line);
    }

    private static ForkResult runWithoutAgent(Jdk jdk) {
        return RUNS_WITHOUT_AGENT.computeIfAbsent(jdk.featureVersion(), version -> {
            ForkResult result = new ForkedJvm(jdk, workDirectory.resolve("without-agent-jdk-" + version))
                    .classPath(BuildOutputs.testClasses())
                    .runMain(OptionsProbeMain.class.getName());
            assertEquals(0, result.exitStatus(), result.describe());
            assertEquals(List.of(), result.stderr(), result.describe());
            assertTrue(result.stdout().containsAll(List.of("cached clock defined false", "ticker threads 0")),
                    result.describe());
            return result;
        });
    }

    /** Every row on every JDK through both entries: through {@code -agentpath} the C half reads the options. */
    private static Stream<Arguments> onEachJdk(List<BadOption> table) {
        return Jdks.TESTED.stream().flatMap(version -> Stream.of(AgentEntry.values())
                .flatMap(entry -> table.stream().map(row -> Arguments.of(version, entry, row))));
    }

    /**
     * One row of the table.
     *
     * @param options the agent arguments, after {@code clock-agent.jar=} or {@code libclockagent.so=}
     * @param quotedToken the offending token, quoted as the message must quote it
     * @param validForms part of the message's statement of what is valid
     */
    record BadOption(String options, String quotedToken, String validForms) {

        @Override
        public String toString() {
            return options;
        }
    }
}
