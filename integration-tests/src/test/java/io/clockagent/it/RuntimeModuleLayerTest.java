package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.layer.LayerHostMain;
import io.clockagent.it.fixtures.modular.ModularMain;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ClassDump;
import io.clockagent.it.support.ClassFiles;
import io.clockagent.it.support.ClockReferences;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.InspectorJar;
import io.clockagent.it.support.JarBuilder;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.ModuleInfoClass;
import io.clockagent.it.support.OnEachJdk;
import io.clockagent.it.support.WallClockWindow;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * A named module that the application itself loads into a {@link ModuleLayer} created at run time, with a class
 * loader of the layer's own: its call sites are rewritten as it loads and find the cached clock, which the module
 * reaches through {@code java.base} alone.
 */
class RuntimeModuleLayerTest {

    private static final String MODULE = "io.clockagent.it.layered";
    private static final String PACKAGE = ModularMain.class.getPackageName();
    private static final String MAIN_CLASS = ModularMain.class.getName().replace('.', '/');
    /** The class of the loader that {@code ModuleLayer.defineModulesWithOneLoader} creates; it has no name. */
    private static final String LAYER_LOADER = "jdk.internal.loader.Loader";

    @TempDir
    static Path workDirectory;
    private static Path hostJar;
    private static Path moduleJar;

    @BeforeAll
    static void writeJars() {
        hostJar = new JarBuilder()
                .addPackage(BuildOutputs.testClasses(), LayerHostMain.class.getPackageName().replace('.', '/'))
                .writeTo(workDirectory.resolve("host.jar"));
        moduleJar = new JarBuilder()
                .addEntry("module-info.class", ModuleInfoClass.readingOnlyJavaBase(MODULE, PACKAGE))
                .addPackage(BuildOutputs.testClasses(), PACKAGE.replace('.', '/'))
                .writeTo(workDirectory.resolve("layered.jar"));
    }

    @OnEachJdk
    void aModuleInALayerCreatedAtRunTimeIsRewrittenAndRuns(int featureVersion, @TempDir Path runDirectory) {
        Path dumpDirectory = runDirectory.resolve("dump");
        long startMillis = System.currentTimeMillis();

        ForkResult result = new ForkedJvm(Jdks.require(featureVersion), runDirectory)
                .javaagent(BuildOutputs.agentJar(), "include=" + PACKAGE + "," + InspectorJar.JAVA_REWRITER)
                .javaagent(InspectorJar.path(), dumpDirectory.toString())
                .classPath(hostJar)
                .runMain(LayerHostMain.class.getName(), moduleJar.toString(), MODULE, ModularMain.class.getName());

        WallClockWindow window = new WallClockWindow(startMillis, System.currentTimeMillis());
        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals("defined-by layer " + LAYER_LOADER, result.stdoutLineStartingWith("defined-by "),
                result.describe());
        assertEquals("module " + MODULE, result.stdoutLineStartingWith("module "), "ran in the named module");
        Map<String, Long> readings = result.readings("reading");
        assertEquals(List.of("callSite", "lambdaBody", "methodReference"), List.copyOf(readings.keySet()),
                result.describe());
        readings.forEach(window::assertContains);

        ClockReferences original = ClockReferences.in(ClassFiles.read(BuildOutputs.testClasses(), MAIN_CLASS));
        String loaderLabel = LAYER_LOADER.substring(LAYER_LOADER.lastIndexOf('.') + 1);
        assertEquals(new ClockReferences(0, 0, original.systemCallSites(), original.systemMethodReferences()),
                ClockReferences.in(ClassDump.readFrom(dumpDirectory).classFile(loaderLabel, MAIN_CLASS)));
        assertEquals(1, result.stderr().size(), result.describe());
        assertTrue(AgentStderr.javaRewriterBanner(PACKAGE, AgentStderr.NO_EXCLUDES)
                .matcher(result.stderr().get(0)).matches(), result.describe());
    }
}
