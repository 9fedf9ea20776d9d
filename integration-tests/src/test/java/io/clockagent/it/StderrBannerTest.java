package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.options.OptionsProbeMain;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ClassDump;
import io.clockagent.it.support.ClassFiles;
import io.clockagent.it.support.ClockReferences;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.InspectorJar;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.OnEachJdk;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;

/**
 * With good options the agent's only output is its one-line banner: no per-class lines, and no JVM warnings from
 * either JDK.
 */
class StderrBannerTest {

    private static final String PROBE = OptionsProbeMain.class.getName().replace('.', '/');

    @OnEachJdk
    void withDefaultOptionsStderrIsExactlyTheBannerAndOneTickerRuns(int featureVersion, @TempDir Path runDirectory) {
        ForkResult result = new ForkedJvm(Jdks.require(featureVersion), runDirectory)
                .javaagent(BuildOutputs.agentJar(), null)
                .classPath(BuildOutputs.testClasses())
                .runMain(OptionsProbeMain.class.getName(), OptionsProbeMain.AWAIT_TICKER);

        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals(1, result.stderr().size(), result.describe());
        assertTrue(AgentStderr.banner(AgentStderr.ALL_CLASSES, AgentStderr.NO_EXCLUDES)
                .matcher(result.stderr().get(0)).matches(), result.describe());
        assertTrue(result.stdout().contains("cached clock defined true"), result.describe());
        assertTrue(result.stdout().containsAll(List.of("ticker threads 1",
                "ticker daemon=true context-class-loader=null")), "one daemon ticker holding no class loader\n"
                + result.describe());
    }

    /**
     * The inspector's own classes are in scope here too; it sees what the Java rewriter does
     * ({@link InspectorJar#JAVA_REWRITER}).
     */
    @OnEachJdk
    void withNoIncludeOptionEveryNonJdkClassIsCovered(int featureVersion, @TempDir Path runDirectory) {
        Path dumpDirectory = runDirectory.resolve("dump");

        ForkResult result = new ForkedJvm(Jdks.require(featureVersion), runDirectory)
                .javaagent(BuildOutputs.agentJar(), InspectorJar.JAVA_REWRITER)
                .javaagent(InspectorJar.path(), dumpDirectory.toString())
                .classPath(BuildOutputs.testClasses())
                .runMain(OptionsProbeMain.class.getName());

        assertEquals(0, result.exitStatus(), result.describe());
        assertTrue(ClockReferences.in(ClassDump.readFrom(dumpDirectory).classFile("app", PROBE)).readsCachedClock(),
                "with no include option the probe is rewritten\n" + result.describe());
    }

    @OnEachJdk
    void includesAndExcludesAppearInTheBannerAsGivenAndNothingElseIsRewrittenOrDefined(int featureVersion,
            @TempDir Path runDirectory) {
        Path dumpDirectory = runDirectory.resolve("dump");

        ForkResult result = new ForkedJvm(Jdks.require(featureVersion), runDirectory)
                .javaagent(BuildOutputs.agentJar(), "include=com.acme:org.x,exclude=com.acme.legacy")
                .javaagent(InspectorJar.path(), dumpDirectory.toString())
                .classPath(BuildOutputs.testClasses())
                .runMain(OptionsProbeMain.class.getName());

        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals(1, result.stderr().size(), result.describe());
        assertTrue(AgentStderr.banner("com.acme:org.x", "com.acme.legacy").matcher(result.stderr().get(0)).matches(),
                result.describe());
        assertTrue(result.stdout().containsAll(List.of("cached clock defined false", "ticker threads 0")),
                "nothing rewritten: no clock class, no ticker\n" + result.describe());
        assertArrayEquals(ClassFiles.read(BuildOutputs.testClasses(), PROBE),
                ClassDump.readFrom(dumpDirectory).classFile("app", PROBE), "the probe lies outside com.acme and org.x");
    }

    @OnEachJdk
    void everySettingIsStatedInTheBannerInOneOrderWhateverOrderTheOptionsCameIn(int featureVersion,
            @TempDir Path runDirectory) {
        ForkResult result = new ForkedJvm(Jdks.require(featureVersion), runDirectory)
                .javaagent(BuildOutputs.agentJar(),
                        "monotonic=true,exclude=com.acme.legacy,wait=spin,include=com.acme,tick=5ms,verbose=false")
                .classPath(BuildOutputs.testClasses())
                .runMain(OptionsProbeMain.class.getName());

        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals(1, result.stderr().size(), result.describe());
        assertTrue(AgentStderr.banner("tick=5ms wait=spin monotonic=true include=com.acme exclude=com.acme.legacy")
                .matcher(result.stderr().get(0)).matches(), result.describe());
    }
}
