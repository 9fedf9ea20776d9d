package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.logging.QuietService;
import io.clockagent.it.fixtures.logging.Slf4jService;
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
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The application's logging stays the application's: a service logs through its own slf4j, 1.7 or 2.x, with the
 * library's own clock reads rewritten too, and in a service that logs nothing the agent loads neither
 * {@code java.util.logging} nor slf4j.
 */
class ApplicationLoggingTest {

    private static final String SERVICE = Slf4jService.class.getName().replace('.', '/');

    @TempDir
    static Path workDirectory;
    private static Path serviceJar;

    @BeforeAll
    static void writeJars() {
        serviceJar = new JarBuilder()
                .addPackage(BuildOutputs.testClasses(), Slf4jService.class.getPackageName().replace('.', '/'))
                .writeTo(workDirectory.resolve("service.jar"));
    }

    @OnEachJdk
    void aServiceOnSlf4j17LogsThroughItsOwnBindingWithTheLibraryRewritten(int featureVersion,
            @TempDir Path runDirectory) {
        assertLogsThroughItsOwnSlf4j(featureVersion, runDirectory, BuildOutputs.slf4j1Jars(),
                "org/slf4j/impl/SimpleLogger");
    }

    @OnEachJdk
    void aServiceOnSlf4j2LogsThroughItsOwnProviderWithTheLibraryRewritten(int featureVersion,
            @TempDir Path runDirectory) {
        assertLogsThroughItsOwnSlf4j(featureVersion, runDirectory, BuildOutputs.slf4j2Jars(),
                "org/slf4j/simple/SimpleLogger");
    }

    @OnEachJdk
    void inAServiceThatDoesNotLogTheAgentLoadsNeitherJavaUtilLoggingNorSlf4j(int featureVersion,
            @TempDir Path runDirectory) throws IOException {
        Path classLoadLog = runDirectory.resolve("class-load.log");
        Path[] classPath = Stream.concat(Stream.of(serviceJar), Stream.of(BuildOutputs.slf4j2Jars()))
                .toArray(Path[]::new);

        ForkResult result = new ForkedJvm(Jdks.require(featureVersion), runDirectory)
                .javaagent(BuildOutputs.agentJar(), null)
                .option("-Xlog:class+load=info:file=" + classLoadLog)
                .classPath(classPath)
                .runMain(QuietService.class.getName());

        assertEquals(0, result.exitStatus(), result.describe());
        List<String> loaded = Files.readAllLines(classLoadLog);
        assertTrue(loaded.stream().anyMatch(line -> line.contains(" " + QuietService.class.getName() + " ")),
                "the log records the service's own classes\n" + result.describe());
        assertEquals(List.of(), loaded.stream()
                .filter(line -> line.contains(" java.util.logging.") || line.contains(" org.slf4j."))
                .collect(Collectors.toList()), "no logging class loaded");
    }

    private void assertLogsThroughItsOwnSlf4j(int featureVersion, Path runDirectory, Path[] slf4jJars,
            String libraryLogger) {
        Path dumpDirectory = runDirectory.resolve("dump");
        Path[] classPath = Stream.concat(Stream.of(serviceJar), Stream.of(slf4jJars)).toArray(Path[]::new);
        long startMillis = System.currentTimeMillis();

        ForkResult result = new ForkedJvm(Jdks.require(featureVersion), runDirectory)
                .javaagent(BuildOutputs.agentJar(), InspectorJar.JAVA_REWRITER)
                .javaagent(InspectorJar.path(), dumpDirectory.toString())
                .classPath(classPath)
                .runMain(Slf4jService.class.getName());

        WallClockWindow window = new WallClockWindow(startMillis, System.currentTimeMillis());
        assertEquals(0, result.exitStatus(), result.describe());
        assertTrue(result.stdoutLineStartingWith("slf4j ").endsWith("/" + slf4jJars[0].getFileName()),
                "the service uses its own slf4j\n" + result.describe());
        long startedMillis = result.readings("reading").get("service");
        window.assertContains("the service", startedMillis);
        assertEquals(2, result.stderr().size(), "the banner and the service's log line\n" + result.describe());
        assertTrue(AgentStderr.javaRewriterBanner(AgentStderr.ALL_CLASSES, AgentStderr.NO_EXCLUDES)
                .matcher(result.stderr().get(0)).matches(), result.describe());
        assertEquals("[main] INFO " + Slf4jService.class.getName() + " - service started at " + startedMillis,
                result.stderr().get(1), result.describe());

        ClassDump dump = ClassDump.readFrom(dumpDirectory);
        assertEquals(new ClockReferences(0, 0, 1, 0), ClockReferences.in(dump.classFile("app", SERVICE)));
        ClockReferences library = ClockReferences.in(dump.classFile("app", libraryLogger));
        assertTrue(library.readsCachedClock() && !library.readsSystemClock(), libraryLogger + ": " + library);
    }
}
