package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.boot.BootApplication;
import io.clockagent.it.fixtures.loaded.LoadedClock;
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
import io.clockagent.it.support.OnEachJdk;
import io.clockagent.it.support.SpringBootJar;
import io.clockagent.it.support.SpringBootLoader;
import io.clockagent.it.support.WallClockWindow;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Spring Boot executable jar, launched with {@code java -jar} through Spring Boot's own {@code JarLauncher}:
 * the application's classes in {@code BOOT-INF/classes} and a library nested in {@code BOOT-INF/lib} are rewritten
 * by Spring Boot's class loader, and their call sites find the cached clock. Spring Boot 3 on JDK 17 and later,
 * Spring Boot 2.7 on JDK 11, where Spring Boot 3 does not run.
 */
class SpringBootJarTest {

    private static final String INCLUDES = BootApplication.class.getPackageName() + ":"
            + LoadedClock.class.getPackageName();

    @TempDir
    static Path workDirectory;
    private static Path libraryJar;
    private static final Map<SpringBootLoader, Path> BOOT_JARS = new EnumMap<>(SpringBootLoader.class);

    @BeforeAll
    static void writeLibraryJar() {
        libraryJar = new JarBuilder()
                .addPackage(BuildOutputs.testClasses(), internalName(LoadedClock.class.getPackageName()))
                .writeTo(workDirectory.resolve("loaded.jar"));
    }

    @OnEachJdk
    void classesInBootInfClassesAndInNestedJarsAreRewrittenAndRun(int featureVersion, @TempDir Path runDirectory) {
        Path dumpDirectory = runDirectory.resolve("dump");
        long startMillis = System.currentTimeMillis();

        Jdk jdk = Jdks.require(featureVersion);
        SpringBootLoader springBoot = SpringBootLoader.newestFor(jdk);

        ForkResult result = new ForkedJvm(jdk, runDirectory)
                .javaagent(BuildOutputs.agentJar(), "include=" + INCLUDES + "," + InspectorJar.JAVA_REWRITER)
                .javaagent(InspectorJar.path(), dumpDirectory.toString())
                .runJar(bootJar(springBoot));

        WallClockWindow window = new WallClockWindow(startMillis, System.currentTimeMillis());
        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals(1, result.stderr().size(), result.describe());
        assertTrue(AgentStderr.javaRewriterBanner(INCLUDES, AgentStderr.NO_EXCLUDES)
                .matcher(result.stderr().get(0)).matches(), result.describe());
        String launchedClassLoader = springBoot.launchedClassLoader();
        assertEquals(Map.of("application", launchedClassLoader, "library", launchedClassLoader),
                result.labelled("defined-by"), "both run under Spring Boot's loader\n" + result.describe());
        Map<String, Long> readings = result.readings("reading");
        assertEquals(List.of("application", "library/callSite", "library/lambdaBody", "library/methodReference"),
                List.copyOf(readings.keySet()), result.describe());
        readings.forEach(window::assertContains);

        ClassDump dump = ClassDump.readFrom(dumpDirectory);
        String loaderLabel = springBoot.launchedClassLoaderSimpleName();
        assertAll(List.of(BootApplication.class, LoadedClock.class).stream().map(clock -> () -> {
            String internalName = internalName(clock.getName());
            ClockReferences original = ClockReferences.in(ClassFiles.read(BuildOutputs.testClasses(), internalName));
            assertEquals(new ClockReferences(0, 0, original.systemCallSites(), original.systemMethodReferences()),
                    ClockReferences.in(dump.classFile(loaderLabel, internalName)), clock.getName());
        }));
    }

    private static Path bootJar(SpringBootLoader springBoot) {
        return BOOT_JARS.computeIfAbsent(springBoot, line -> new SpringBootJar()
                .launcher(line)
                .applicationPackage(BuildOutputs.testClasses(), internalName(BootApplication.class.getPackageName()))
                .library(libraryJar)
                .writeTo(workDirectory.resolve(line.name().toLowerCase(Locale.ROOT) + ".jar"),
                        BootApplication.class.getName()));
    }

    private static String internalName(String binaryName) {
        return binaryName.replace('.', '/');
    }
}
