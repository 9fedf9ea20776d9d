package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.asm.ServiceWithOwnAsm;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ClassDump;
import io.clockagent.it.support.ClockReferences;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.InspectorJar;
import io.clockagent.it.support.JarBuilder;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.OnEachJdk;
import io.clockagent.it.support.WallClockWindow;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * A service that carries its own ASM, a version other than the one Byte Buddy bundles, and generates a class with it
 * at run time works alongside the agent: no clash, no warning, and the generated class is rewritten like any other.
 */
class ServiceAsmTest {

    private static final String FIXTURE_PACKAGE = ServiceWithOwnAsm.class.getPackageName();
    private static final String GENERATED_CLOCK = ServiceWithOwnAsm.GENERATED_CLOCK.replace('.', '/');

    @TempDir
    static Path workDirectory;
    private static Path serviceJar;

    @BeforeAll
    static void writeJars() {
        serviceJar = new JarBuilder()
                .addPackage(BuildOutputs.testClasses(), FIXTURE_PACKAGE.replace('.', '/'))
                .writeTo(workDirectory.resolve("service.jar"));
    }

    @OnEachJdk
    void aClassGeneratedByTheServicesOwnAsmIsRewrittenAndRuns(int featureVersion, @TempDir Path runDirectory) {
        Path dumpDirectory = runDirectory.resolve("dump");
        long startMillis = System.currentTimeMillis();

        ForkResult result = new ForkedJvm(Jdks.require(featureVersion), runDirectory)
                .javaagent(BuildOutputs.agentJar(), "include=" + FIXTURE_PACKAGE + "," + InspectorJar.JAVA_REWRITER)
                .javaagent(InspectorJar.path(), dumpDirectory.toString())
                .classPath(serviceJar, BuildOutputs.serviceAsmJar())
                .runMain(ServiceWithOwnAsm.class.getName());

        WallClockWindow window = new WallClockWindow(startMillis, System.currentTimeMillis());
        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals(1, result.stderr().size(), "the banner alone: no clash, no warning\n" + result.describe());
        assertTrue(AgentStderr.javaRewriterBanner(FIXTURE_PACKAGE, AgentStderr.NO_EXCLUDES)
                .matcher(result.stderr().get(0)).matches(), result.describe());
        assertTrue(result.stdoutLineStartingWith("asm ").endsWith("/" + BuildOutputs.serviceAsmJar().getFileName()),
                "the service uses its own ASM\n" + result.describe());
        window.assertContains("the generated class", result.readings("reading").get("generated"));
        assertEquals(new ClockReferences(0, 0, 1, 0),
                ClockReferences.in(ClassDump.readFrom(dumpDirectory).classFile("app", GENERATED_CLOCK)));
    }
}
