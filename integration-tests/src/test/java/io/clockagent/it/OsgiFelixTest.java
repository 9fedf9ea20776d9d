package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.osgi.FelixHostMain;
import io.clockagent.it.fixtures.osgi.bundle.ClockActivator;
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
import io.clockagent.it.support.OnEachJdk;
import io.clockagent.it.support.WallClockWindow;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apache Felix, embedded through the OSGi launch API with no boot-delegation setting, runs a bundle whose activator
 * reads the clock: OSGi frameworks always delegate {@code java.*} to the boot loader, where the cached clock lives.
 * The agent runs with its default includes, so the framework's own call sites are rewritten too.
 */
class OsgiFelixTest {

    private static final String ACTIVATOR = ClockActivator.class.getName().replace('.', '/');
    /** Felix's bundle class loader; it has no name, so the inspector labels it by its simple class name. */
    private static final String BUNDLE_LOADER = "org.apache.felix.framework.BundleWiringImpl$BundleClassLoader";
    /** One of Felix's own classes that reads the clock. */
    private static final String FELIX_CLASS = "org/apache/felix/framework/Felix";

    @TempDir
    static Path workDirectory;
    private static Path hostJar;
    private static Path bundleJar;

    @BeforeAll
    static void writeJars() {
        hostJar = new JarBuilder()
                .addPackage(BuildOutputs.testClasses(), FelixHostMain.class.getPackageName().replace('.', '/'))
                .writeTo(workDirectory.resolve("host.jar"));
        bundleJar = new JarBuilder()
                .manifestAttribute("Bundle-ManifestVersion", "2")
                .manifestAttribute("Bundle-SymbolicName", "io.clockagent.it.osgi.bundle")
                .manifestAttribute("Bundle-Version", "1.0.0")
                .manifestAttribute("Bundle-Activator", ClockActivator.class.getName())
                .manifestAttribute("Import-Package", "org.osgi.framework")
                .addPackage(BuildOutputs.testClasses(), ClockActivator.class.getPackageName().replace('.', '/'))
                .writeTo(workDirectory.resolve("bundle.jar"));
    }

    @OnEachJdk
    void aBundleActivatorIsRewrittenAndReadsTheCachedClockWithoutBootDelegation(int featureVersion,
            @TempDir Path runDirectory) {
        Path dumpDirectory = runDirectory.resolve("dump");
        long startMillis = System.currentTimeMillis();

        ForkResult result = new ForkedJvm(Jdks.require(featureVersion), runDirectory)
                .javaagent(BuildOutputs.agentJar(), InspectorJar.JAVA_REWRITER)
                .javaagent(InspectorJar.path(), dumpDirectory.toString())
                .classPath(hostJar, BuildOutputs.felixFrameworkJar())
                .runMain(FelixHostMain.class.getName(), bundleJar.toString(),
                        runDirectory.resolve("felix-cache").toString());

        WallClockWindow window = new WallClockWindow(startMillis, System.currentTimeMillis());
        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals("framework org.apache.felix.framework", result.stdoutLineStartingWith("framework "));
        assertEquals("bundle-state active", result.stdoutLineStartingWith("bundle-state "), result.describe());
        assertEquals("defined-by bundle " + BUNDLE_LOADER, result.stdoutLineStartingWith("defined-by "),
                result.describe());
        Map<String, Long> readings = result.readings("reading");
        assertEquals(List.of("bundle/callSite", "bundle/lambdaBody", "bundle/methodReference"),
                List.copyOf(readings.keySet()), result.describe());
        readings.forEach(window::assertContains);
        // Felix itself may warn on newer JDKs (sun.misc.Unsafe); of the agent there is the banner alone.
        List<String> agentLines = result.stderr().stream().filter(line -> line.startsWith("clock-agent: "))
                .collect(Collectors.toList());
        assertEquals(1, agentLines.size(), result.describe());
        assertTrue(AgentStderr.javaRewriterBanner(AgentStderr.ALL_CLASSES, AgentStderr.NO_EXCLUDES)
                .matcher(agentLines.get(0)).matches(), result.describe());

        ClassDump dump = ClassDump.readFrom(dumpDirectory);
        ClockReferences original = ClockReferences.in(ClassFiles.read(BuildOutputs.testClasses(), ACTIVATOR));
        assertEquals(new ClockReferences(0, 0, original.systemCallSites(), original.systemMethodReferences()),
                ClockReferences.in(dump.classFile(BUNDLE_LOADER.substring(BUNDLE_LOADER.lastIndexOf('$') + 1),
                        ACTIVATOR)), "the activator, as the bundle's loader defined it");
        ClockReferences felix = ClockReferences.in(dump.classFile("app", FELIX_CLASS));
        assertTrue(felix.readsCachedClock() && !felix.readsSystemClock(), "the framework's own " + FELIX_CLASS
                + " is rewritten: " + felix);
    }
}
