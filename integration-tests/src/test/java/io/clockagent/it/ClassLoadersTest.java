package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.loaders.LoadersMain;
import io.clockagent.it.support.AgentEntry;
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
import io.clockagent.it.support.OnEachJdkThroughBothEntries;
import io.clockagent.it.support.WallClockWindow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rewritten call sites find the cached clock, and run, whichever class loader defines them: the application class
 * path, a {@code URLClassLoader} (under the platform loader, and with no parent at all), a child-first loader and a
 * Spring-Boot-style nested-jar loader, all in one fork per JDK and entry.
 */
class ClassLoadersTest {

    private static final String LOADED_PACKAGE = "io/clockagent/it/fixtures/loaded";
    private static final String LOADED_CLOCK = LoadersMain.LOADED_CLOCK.replace('.', '/');

    /** The cases LoadersMain runs, in order; each is named after the loader that must define LoadedClock in it. */
    private static final List<String> LOADERS = List.of("app", "url-class-loader", "boot-parent", "child-first",
            "nested-jar");

    @TempDir
    static Path workDirectory;
    private static Path launcherJar;
    private static Path loadedJar;
    private static Path bundleJar;
    private static final Map<String, LoadersRun> RUNS = new HashMap<>();

    @BeforeAll
    static void writeJars() throws Exception {
        launcherJar = new JarBuilder()
                .addPackage(BuildOutputs.testClasses(), "io/clockagent/it/fixtures/loaders")
                .writeTo(workDirectory.resolve("launcher.jar"));
        loadedJar = new JarBuilder()
                .addPackage(BuildOutputs.testClasses(), LOADED_PACKAGE)
                .writeTo(workDirectory.resolve("loaded.jar"));
        bundleJar = new JarBuilder()
                .addEntry(LoadersMain.NESTED_JAR_ENTRY, Files.readAllBytes(loadedJar))
                .writeTo(workDirectory.resolve("bundle.jar"));
    }

    @OnEachJdkThroughBothEntries
    void rewrittenCallSitesRunUnderEveryKindOfClassLoader(int featureVersion, AgentEntry entry) {
        LoadersRun run = runOn(featureVersion, entry);
        Map<String, Long> readings = run.result.readings("reading");

        List<String> expectedReadings = new ArrayList<>();
        for (String loaderCase : LOADERS) {
            LoadersMain.CLOCK_METHODS.forEach(method -> expectedReadings.add(loaderCase + "/" + method));
        }
        assertEquals(expectedReadings, List.copyOf(readings.keySet()), run.result.describe());
        readings.forEach((reading, millis) -> run.window.assertContains(reading, millis));
    }

    @OnEachJdkThroughBothEntries
    void eachLoaderDefinesItsOwnRewrittenCopyOfTheClass(int featureVersion, AgentEntry entry) {
        LoadersRun run = runOn(featureVersion, entry);
        ClockReferences original = ClockReferences.in(ClassFiles.read(BuildOutputs.testClasses(), LOADED_CLOCK));
        ClockReferences expected = new ClockReferences(0, 0, original.systemCallSites(),
                original.systemMethodReferences());

        assertTrue(original.systemCallSites() > 0 && original.systemMethodReferences() > 0, original.toString());
        Map<String, String> definedBy = run.result.labelled("defined-by");
        assertEquals(LOADERS, List.copyOf(definedBy.keySet()), run.result.describe());
        List<Executable> checks = new ArrayList<>();
        for (String loader : LOADERS) {
            checks.add(() -> assertEquals(loader, definedBy.get(loader), "the class's defining loader"));
            checks.add(() -> assertEquals(expected, ClockReferences.in(run.dump.classFile(loader, LOADED_CLOCK)),
                    "as defined by " + loader));
            checks.add(() -> assertEquals(List.of("java/lang/ClockAgentCachedClock"),
                    ownersOfSystemUtc(run.dump.classFile(loader, LOADED_CLOCK)),
                    "Clock.systemUTC() redirected, as defined by " + loader));
        }
        assertAll(checks);
    }

    @OnEachJdkThroughBothEntries
    void stderrHoldsOnlyTheBanner(int featureVersion, AgentEntry entry) {
        LoadersRun run = runOn(featureVersion, entry);

        assertEquals(1, run.result.stderr().size(), run.result.describe());
        String includes = LOADED_PACKAGE.replace('/', '.');
        assertTrue((entry == AgentEntry.JAVAAGENT ? AgentStderr.javaRewriterBanner(includes, AgentStderr.NO_EXCLUDES)
                : AgentStderr.banner(includes, AgentStderr.NO_EXCLUDES))
                .matcher(run.result.stderr().get(0)).matches(), run.result.describe());
    }

    /** The owners that the class's calls of a static {@code systemUTC()} name. */
    private static List<String> ownersOfSystemUtc(byte[] classFile) {
        List<String> owners = new ArrayList<>();
        new ClassReader(classFile).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                    String[] exceptions) {
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitMethodInsn(int opcode, String owner, String method, String methodDescriptor,
                            boolean isInterface) {
                        if (opcode == Opcodes.INVOKESTATIC && method.equals("systemUTC")) {
                            owners.add(owner);
                        }
                    }
                };
            }
        }, ClassReader.SKIP_FRAMES);
        return owners;
    }

    private static LoadersRun runOn(int featureVersion, AgentEntry entry) {
        Jdk jdk = Jdks.require(featureVersion);
        return RUNS.computeIfAbsent(featureVersion + " " + entry, key -> fork(jdk, entry));
    }

    /** Through {@code -javaagent} the Java rewriter serves throughout; through {@code -agentpath} the C one does. */
    private static LoadersRun fork(Jdk jdk, AgentEntry entry) {
        Path runDirectory = workDirectory.resolve("jdk-" + jdk.featureVersion() + entry);
        Path dumpDirectory = runDirectory.resolve("dump");
        long startMillis = System.currentTimeMillis();
        String include = "include=" + LOADED_PACKAGE.replace('/', '.');
        ForkResult result = entry.addTo(new ForkedJvm(jdk, runDirectory),
                        entry == AgentEntry.JAVAAGENT ? include + "," + InspectorJar.JAVA_REWRITER : include)
                .javaagent(InspectorJar.path(), dumpDirectory.toString())
                .classPath(launcherJar, loadedJar)
                .runMain(LoadersMain.class.getName(), loadedJar.toString(), bundleJar.toString());
        WallClockWindow window = new WallClockWindow(startMillis, System.currentTimeMillis());
        assertEquals(0, result.exitStatus(), result.describe());
        return new LoadersRun(result, ClassDump.readFrom(dumpDirectory), window);
    }

    private record LoadersRun(ForkResult result, ClassDump dump, WallClockWindow window) {
    }
}
