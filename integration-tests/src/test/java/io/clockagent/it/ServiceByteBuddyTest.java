package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.bytebuddy.ServiceWithOwnByteBuddy;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ClassDump;
import io.clockagent.it.support.ClockReferences;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.InspectorJar;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.OnEachJdk;
import io.clockagent.it.support.WallClockWindow;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;

/**
 * A service that carries its own, different Byte Buddy and generates a class with it at run time works alongside the
 * agent: no clash, no warning, and the generated class is rewritten like any other.
 */
class ServiceByteBuddyTest {

    private static final String FIXTURE_PACKAGE = ServiceWithOwnByteBuddy.class.getPackageName();
    private static final String GENERATED_CLOCK = ServiceWithOwnByteBuddy.GENERATED_CLOCK.replace('.', '/');

    @OnEachJdk
    void aClassGeneratedByTheServicesOwnByteBuddyIsRewrittenAndRuns(int featureVersion, @TempDir Path runDirectory) {
        Path dumpDirectory = runDirectory.resolve("dump");
        long startMillis = System.currentTimeMillis();

        ForkResult result = new ForkedJvm(Jdks.require(featureVersion), runDirectory)
                .javaagent(BuildOutputs.agentJar(), "include=" + FIXTURE_PACKAGE + "," + InspectorJar.JAVA_REWRITER)
                .javaagent(InspectorJar.path(), dumpDirectory.toString())
                .classPath(BuildOutputs.testClasses(), BuildOutputs.serviceByteBuddyJar())
                .runMain(ServiceWithOwnByteBuddy.class.getName());

        WallClockWindow window = new WallClockWindow(startMillis, System.currentTimeMillis());
        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals(1, result.stderr().size(), "the banner alone: no clash, no warning\n" + result.describe());
        assertTrue(AgentStderr.javaRewriterBanner(FIXTURE_PACKAGE, AgentStderr.NO_EXCLUDES)
                .matcher(result.stderr().get(0)).matches(), result.describe());
        assertTrue(result.stdoutLineStartingWith("byte-buddy ")
                .endsWith("/byte-buddy-" + BuildOutputs.serviceByteBuddyVersion() + ".jar"),
                "the service uses its own Byte Buddy\n" + result.describe());
        window.assertContains("the generated class", result.readings("reading").get("generated"));

        Map<String, byte[]> generated = ClassDump.readFrom(dumpDirectory).all().entrySet().stream()
                .filter(recorded -> recorded.getKey().endsWith("/" + GENERATED_CLOCK))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        assertEquals(1, generated.size(), "defined once: " + generated.keySet());
        assertEquals(new ClockReferences(0, 0, 1, 0), ClockReferences.in(List.copyOf(generated.values()).get(0)));
    }
}
