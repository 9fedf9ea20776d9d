package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import io.clockagent.it.support.Jdk;
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
 * Rewritten call sites in a named module, launched with {@code -p ... -m}, find the cached clock and run: the module
 * reads only {@code java.base}, and the clock lives in its exported {@code java.lang}.
 */
class NamedModuleTest {

    private static final String MODULE = "io.clockagent.it.modular";
    private static final String PACKAGE = ModularMain.class.getPackageName();
    private static final String MAIN_CLASS = ModularMain.class.getName().replace('.', '/');

    @TempDir
    static Path workDirectory;
    private static Path moduleJar;

    @BeforeAll
    static void writeJars() {
        moduleJar = new JarBuilder()
                .addEntry("module-info.class", ModuleInfoClass.readingOnlyJavaBase(MODULE, PACKAGE))
                .addPackage(BuildOutputs.testClasses(), PACKAGE.replace('.', '/'))
                .writeTo(workDirectory.resolve("modular.jar"));
    }

    @OnEachJdk
    void callSitesInANamedModuleAreRewrittenAndRun(int featureVersion, @TempDir Path runDirectory) {
        Jdk jdk = Jdks.require(featureVersion);
        Path dumpDirectory = runDirectory.resolve("dump");
        long startMillis = System.currentTimeMillis();

        ForkResult result = new ForkedJvm(jdk, runDirectory)
                .javaagent(BuildOutputs.agentJar(), "include=" + PACKAGE + "," + InspectorJar.JAVA_REWRITER)
                .javaagent(InspectorJar.path(), dumpDirectory.toString())
                .modulePath(moduleJar)
                .runModule(MODULE + "/" + ModularMain.class.getName());

        WallClockWindow window = new WallClockWindow(startMillis, System.currentTimeMillis());
        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals("module " + MODULE, result.stdoutLineStartingWith("module "), "ran in the named module");
        Map<String, Long> readings = result.readings("reading");
        assertEquals(List.of("callSite", "lambdaBody", "methodReference"), List.copyOf(readings.keySet()),
                result.describe());
        readings.forEach((reading, millis) -> window.assertContains(reading, millis));

        ClockReferences original = ClockReferences.in(ClassFiles.read(BuildOutputs.testClasses(), MAIN_CLASS));
        assertEquals(new ClockReferences(0, 0, original.systemCallSites(), original.systemMethodReferences()),
                ClockReferences.in(ClassDump.readFrom(dumpDirectory).classFile("app", MAIN_CLASS)));
        assertEquals(1, result.stderr().size(), result.describe());
        assertTrue(AgentStderr.javaRewriterBanner(PACKAGE, AgentStderr.NO_EXCLUDES)
                .matcher(result.stderr().get(0)).matches(), result.describe());
    }
}
