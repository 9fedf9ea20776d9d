package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.ShapesMain;
import io.clockagent.it.support.AgentEntry;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ClassDump;
import io.clockagent.it.support.ClassFiles;
import io.clockagent.it.support.ClockReferences;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.GeneratedClocks;
import io.clockagent.it.support.InspectorJar;
import io.clockagent.it.support.Jdk;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.OnEachJdkThroughBothEntries;
import io.clockagent.it.support.WallClockWindow;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every shape of {@code System.currentTimeMillis()} use, run in a real JVM of each JDK with the shipped agent and
 * the inspector agent behind it, through either entry. One fork per JDK and entry serves all the checks here; each
 * check reads the same run.
 */
class CallSiteShapesTest {

    private static final String INCLUDED_PACKAGE = "io/clockagent/it/fixtures/shapes";
    private static final String EXCLUDED_PACKAGE = "io/clockagent/it/fixtures/shapes/legacy";
    private static final String OTHER_PACKAGE = "io/clockagent/it/fixtures/outside";
    /**
     * Through {@code -javaagent}, the Java rewriter serves throughout ({@code NativeClassFilterTest} runs these shapes
     * through its native filter); through {@code -agentpath}, the C rewriter does, from the first class.
     */
    private static final String OPTIONS = "include=" + dotted(INCLUDED_PACKAGE) + ",exclude="
            + dotted(EXCLUDED_PACKAGE) + ",verbose=true";
    private static final String JAVAAGENT_OPTIONS = OPTIONS + "," + InspectorJar.JAVA_REWRITER;

    /** What javac compiles from this module's fixture sources, in the order ShapesMain prints them. */
    private static final List<String> COMPILED_SHAPES = List.of("static-method", "instance-method", "constructor",
            "static-initializer", "lambda-body", "anonymous-class", "inner-class", "static-nested-class",
            "enum-method", "enum-constant-body", "record-constructor", "record-method", "interface-default-method",
            "interface-static-method", "try-block", "catch-block", "finally-block", "for-loop", "while-condition",
            "synchronized-block", "synchronized-method", "method-reference", "method-reference-boxed");

    /** The compiled fixture classes that read the clock; the ones around them (outer classes and so on) do not. */
    private static final List<String> COMPILED_CLOCK_READERS = List.of("StaticMethodClock", "InstanceMethodClock",
            "ConstructorClock", "StaticInitializerClock", "LambdaClock", "AnonymousClassClock$1",
            "NestedClassClock$Inner", "NestedClassClock$StaticNested", "EnumClock", "EnumClock$1", "RecordClock",
            "InterfaceClock", "TryCatchFinallyClock", "LoopClock", "SynchronizedClock", "MethodReferenceClock");

    @TempDir
    static Path workDirectory;
    private static Path generatedClasses;
    private static final Map<String, ShapesRun> RUNS = new HashMap<>();

    @BeforeAll
    static void writeGeneratedClasses() {
        generatedClasses = workDirectory.resolve("generated-classes");
        ClassFiles.write(generatedClasses, ShapesMain.LDC_HANDLE_CLOCK,
                GeneratedClocks.loadingClockHandle(ShapesMain.LDC_HANDLE_CLOCK));
        for (int major = ShapesMain.OLDEST_CLASS_FILE_MAJOR_VERSION; major <= Jdks.NEWEST_CLASS_FILE_MAJOR_VERSION;
                major++) {
            String name = ShapesMain.CLASS_FILE_VERSION_CLOCK_PREFIX + major;
            ClassFiles.write(generatedClasses, name, GeneratedClocks.withClassFileVersion(name, major));
        }
    }

    @OnEachJdkThroughBothEntries
    void everyShapeRunsAndReadsTheCurrentTime(int featureVersion, AgentEntry entry) {
        ShapesRun run = runOn(featureVersion, entry);
        Map<String, Long> readings = run.result.readings("shape");

        assertEquals(expectedShapeLabels(run.jdk), List.copyOf(readings.keySet()), run.result.describe());
        readings.forEach((shape, millis) -> run.window.assertContains(shape, millis));
    }

    @OnEachJdkThroughBothEntries
    void everyIncludedClassThatReadsTheClockNowCallsTheCachedClockInstead(int featureVersion, AgentEntry entry) {
        ShapesRun run = runOn(featureVersion, entry);
        Map<String, byte[]> readers = run.includedOriginals(true);

        assertEquals(expectedClockReaders(run.jdk), readers.keySet());
        assertAll(readers.entrySet().stream().<Executable>map(original -> () -> {
            ClockReferences before = ClockReferences.in(original.getValue());
            ClockReferences after = ClockReferences.in(run.dump.classFile("app", original.getKey()));
            assertEquals(new ClockReferences(0, 0, before.systemCallSites(), before.systemMethodReferences()),
                    after, original.getKey() + ": every System.currentTimeMillis() use redirected, none added");
        }));
    }

    @OnEachJdkThroughBothEntries
    void includedClassesWithoutClockReadsAreDefinedFromTheirOriginalBytes(int featureVersion, AgentEntry entry) {
        ShapesRun run = runOn(featureVersion, entry);
        Map<String, byte[]> nonReaders = run.includedOriginals(false);

        assertTrue(nonReaders.keySet().containsAll(Set.of(INCLUDED_PACKAGE + "/NoClockReads",
                INCLUDED_PACKAGE + "/LookalikeClock", INCLUDED_PACKAGE + "/NestedClassClock")), nonReaders.keySet()
                + " should hold the fixtures without clock reads");
        assertAll(nonReaders.entrySet().stream().<Executable>map(original -> () -> assertArrayEquals(
                original.getValue(), run.dump.classFile("app", original.getKey()), original.getKey() + " changed")));
    }

    @OnEachJdkThroughBothEntries
    void classesInExcludedAndOtherPackagesAreDefinedFromTheirOriginalBytes(int featureVersion, AgentEntry entry) {
        ShapesRun run = runOn(featureVersion, entry);
        Map<String, byte[]> originals = new TreeMap<>(ClassFiles.under(BuildOutputs.testClasses(), EXCLUDED_PACKAGE));
        originals.putAll(ClassFiles.under(BuildOutputs.testClasses(), OTHER_PACKAGE));

        assertEquals(2, originals.size(), "fixtures found: " + originals.keySet());
        assertAll(originals.entrySet().stream().<Executable>map(original -> () -> {
            assertTrue(ClockReferences.in(original.getValue()).readsSystemClock(), original.getKey()
                    + " should read the clock, or this check proves nothing");
            assertArrayEquals(original.getValue(), run.dump.classFile("app", original.getKey()),
                    original.getKey() + " changed");
        }));
        Map<String, Long> untouched = run.result.readings("untouched");
        assertEquals(4, untouched.size(), run.result.describe());
        untouched.forEach((shape, millis) -> run.window.assertContains(shape, millis));
    }

    @OnEachJdkThroughBothEntries
    void jdkClassesAreNeverRewritten(int featureVersion, AgentEntry entry) {
        ShapesRun run = runOn(featureVersion, entry);
        byte[] bootSample = run.dump.classFile("boot", internal(ShapesMain.BOOT_LOADER_SAMPLE));
        byte[] platformSample = run.dump.classFile("platform", internal(ShapesMain.PLATFORM_LOADER_SAMPLE));
        Map<String, byte[]> jdkClasses = new TreeMap<>(run.dump.definedBy("boot"));
        jdkClasses.putAll(run.dump.definedBy("platform"));

        assertTrue(ClockReferences.in(bootSample).readsSystemClock(), ShapesMain.BOOT_LOADER_SAMPLE);
        assertTrue(ClockReferences.in(platformSample).readsSystemClock(), ShapesMain.PLATFORM_LOADER_SAMPLE);
        assertEquals(List.of(), ClockReferences.rewrittenAmong(jdkClasses), "JDK classes calling the cached clock");
    }

    @OnEachJdkThroughBothEntries
    void noClassOutsideTheIncludedPackagesIsRewritten(int featureVersion, AgentEntry entry) {
        ShapesRun run = runOn(featureVersion, entry);
        Map<String, byte[]> others = new TreeMap<>(run.dump.all());
        run.includedOriginals(true).keySet().forEach(name -> others.remove("app/" + name));

        assertFalse(others.isEmpty());
        assertEquals(List.of(), ClockReferences.rewrittenAmong(others), "classes outside the included packages"
                + " calling the cached clock");
    }

    @OnEachJdkThroughBothEntries
    void classFilesOfEveryVersionTheJdkLoadsFromJava8OnAreRewrittenAndRun(int featureVersion, AgentEntry entry) {
        ShapesRun run = runOn(featureVersion, entry);
        Map<String, Long> readings = run.result.readings("shape");

        List<Executable> checks = new ArrayList<>();
        for (int major = ShapesMain.OLDEST_CLASS_FILE_MAJOR_VERSION; major <= run.jdk.maxClassFileMajorVersion();
                major++) {
            String label = "class-file-version-" + major;
            byte[] defined = run.dump.classFile("app", internal(ShapesMain.CLASS_FILE_VERSION_CLOCK_PREFIX + major));
            int expectedMajor = major;
            checks.add(() -> {
                assertEquals(expectedMajor, majorVersionOf(defined), label);
                assertEquals(new ClockReferences(0, 0, 1, 0), ClockReferences.in(defined), label);
                assertTrue(readings.containsKey(label), label + " never ran\n" + run.result.describe());
            });
        }
        assertAll(checks);
    }

    @OnEachJdkThroughBothEntries
    void verboseStderrIsTheBannerThenOneLinePerRewrittenClassWithItsCounts(int featureVersion, AgentEntry entry) {
        ShapesRun run = runOn(featureVersion, entry);
        Set<String> expectedReports = new TreeSet<>();
        run.includedOriginals(true).forEach((name, bytes) -> {
            ClockReferences references = ClockReferences.in(bytes);
            expectedReports.add(AgentStderr.rewrote(name.replace('/', '.'), references.systemCallSites(),
                    references.systemMethodReferences()));
        });
        List<String> stderr = run.result.stderr();

        assertFalse(stderr.isEmpty(), run.result.describe());
        assertTrue((entry == AgentEntry.JAVAAGENT
                ? AgentStderr.javaRewriterBanner(dotted(INCLUDED_PACKAGE), dotted(EXCLUDED_PACKAGE))
                : AgentStderr.banner(dotted(INCLUDED_PACKAGE), dotted(EXCLUDED_PACKAGE)))
                .matcher(stderr.get(0)).matches(), "first line is the banner\n" + run.result.describe());
        assertEquals(expectedReports, new TreeSet<>(stderr.subList(1, stderr.size())), run.result.describe());
        assertEquals(expectedReports.size(), stderr.size() - 1, "each class reported once\n" + run.result.describe());
    }

    private static ShapesRun runOn(int featureVersion, AgentEntry entry) {
        Jdk jdk = Jdks.require(featureVersion);
        return RUNS.computeIfAbsent(featureVersion + " " + entry, key -> fork(jdk, entry));
    }

    private static ShapesRun fork(Jdk jdk, AgentEntry entry) {
        Path runDirectory = workDirectory.resolve("jdk-" + jdk.featureVersion() + entry);
        Path dumpDirectory = runDirectory.resolve("dump");
        long startMillis = System.currentTimeMillis();
        ForkResult result = entry.addTo(new ForkedJvm(jdk, runDirectory),
                        entry == AgentEntry.JAVAAGENT ? JAVAAGENT_OPTIONS : OPTIONS)
                .javaagent(InspectorJar.path(), dumpDirectory.toString())
                .classPath(BuildOutputs.testClasses(), generatedClasses)
                .runMain(ShapesMain.class.getName(), String.valueOf(jdk.maxClassFileMajorVersion()));
        WallClockWindow window = new WallClockWindow(startMillis, System.currentTimeMillis());
        assertEquals(0, result.exitStatus(), result.describe());
        return new ShapesRun(jdk, result, ClassDump.readFrom(dumpDirectory), window);
    }

    private static List<String> expectedShapeLabels(Jdk jdk) {
        List<String> labels = new ArrayList<>(COMPILED_SHAPES);
        if (!hasRecords(jdk)) {
            labels.removeAll(List.of("record-constructor", "record-method"));
        }
        labels.add("ldc-method-handle");
        for (int major = ShapesMain.OLDEST_CLASS_FILE_MAJOR_VERSION; major <= jdk.maxClassFileMajorVersion();
                major++) {
            labels.add("class-file-version-" + major);
        }
        return labels;
    }

    private static Set<String> expectedClockReaders(Jdk jdk) {
        Set<String> readers = new TreeSet<>();
        COMPILED_CLOCK_READERS.forEach(simpleName -> readers.add(INCLUDED_PACKAGE + "/" + simpleName));
        if (!hasRecords(jdk)) {
            readers.remove(INCLUDED_PACKAGE + "/RecordClock");
        }
        readers.add(internal(ShapesMain.LDC_HANDLE_CLOCK));
        for (int major = ShapesMain.OLDEST_CLASS_FILE_MAJOR_VERSION; major <= jdk.maxClassFileMajorVersion();
                major++) {
            readers.add(internal(ShapesMain.CLASS_FILE_VERSION_CLOCK_PREFIX + major));
        }
        return readers;
    }

    private static boolean hasRecords(Jdk jdk) {
        return jdk.maxClassFileMajorVersion() >= ShapesMain.OLDEST_RECORD_MAJOR_VERSION;
    }

    private static int majorVersionOf(byte[] classFile) {
        return ((classFile[6] & 0xFF) << 8) | (classFile[7] & 0xFF);
    }

    private static String dotted(String internalName) {
        return internalName.replace('/', '.');
    }

    private static String internal(String binaryName) {
        return binaryName.replace('.', '/');
    }

    /** One forked run and what the inspector recorded of it. */
    private record ShapesRun(Jdk jdk, ForkResult result, ClassDump dump, WallClockWindow window) {

        /**
         * The original class files of the included, not excluded, fixtures that this JVM loaded, compiled and
         * generated alike, split by whether they read the clock.
         */
        Map<String, byte[]> includedOriginals(boolean readingTheClock) {
            Map<String, byte[]> candidates = new TreeMap<>(ClassFiles.under(BuildOutputs.testClasses(),
                    INCLUDED_PACKAGE));
            candidates.putAll(ClassFiles.under(generatedClasses, INCLUDED_PACKAGE));
            Map<String, byte[]> originals = new TreeMap<>();
            candidates.forEach((name, bytes) -> {
                boolean excluded = name.startsWith(EXCLUDED_PACKAGE + "/");
                boolean tooNewForThisJdk = majorVersionOf(bytes) > jdk.maxClassFileMajorVersion();
                if (!excluded && !tooNewForThisJdk
                        && ClockReferences.in(bytes).readsSystemClock() == readingTheClock) {
                    originals.put(name, bytes);
                }
            });
            return originals;
        }
    }
}
