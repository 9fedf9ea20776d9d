package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.ShapesMain;
import io.clockagent.it.fixtures.attach.AttachTargetMain;
import io.clockagent.it.fixtures.nativefilter.NativeFilterMain;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ClassFiles;
import io.clockagent.it.support.DistinctMillis;
import io.clockagent.it.support.EmulatedJdk;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.GeneratedClocks;
import io.clockagent.it.support.Jdk;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.LiveJvm;
import io.clockagent.it.support.NativeLibraries;
import io.clockagent.it.support.NoexecMount;
import io.clockagent.it.support.OnEachJdk;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The native class filter (the native start's C hook; Linux x86-64 and aarch64, on by default): through
 * {@code -javaagent} it rewrites classes from the first class in scope, and through the jar's attach the classes
 * loaded before too, of every class file version, with no JVM warning on JDK 25, and a detach stops it before
 * restoring the classes it rewrote. With {@code nativeFilter=false}, or when its library cannot be written or loaded,
 * the Java transformer serves alone and rewrites the same classes; only a filter asked for with
 * {@code nativeFilter=true} then says why. Asked for call sites, both tell the same classes and counts. Run with
 * {@code tick=1s}, so that a rewritten site shows by changing value about once a second.
 */
class NativeClassFilterTest {

    private static final String INCLUDE = "include=io.clockagent.it.fixtures.shapes";
    /*
     * cache=always: the probes tell the rewritten sites by their cached values from their first reads, where cache=auto
     * reads the direct clock until its count shows caching paying, which a loaded machine can stretch past a probe.
     */
    private static final String OPTIONS = INCLUDE + ",tick=1s,cache=always";
    private static final List<String> PROBED = List.of("static-method", "lambda-body", "method-reference");
    /** A liveness bound for the MBean's registration, which takes milliseconds; never a speed target. */
    private static final long MBEAN_PATIENCE_MILLIS = 20_000;
    /** An architecture the build makes no library for, which a JVM told it runs there looks for in the jar. */
    private static final String UNBUILT_ARCHITECTURE = "riscv64";
    private static final String AARCH64_PLATFORM = "linux-aarch64";
    /** The fixture's main class, in scope and a clock reader too, which the native start rewrites before the rest. */
    private static final int MAIN_CLASS = 1;
    private static final Pattern NATIVE_COUNTS = Pattern.compile("natively scanned (\\d+) rewritten (\\d+)");

    @TempDir
    static Path workDirectory;
    private static Path generatedClasses;

    @BeforeAll
    static void writeGeneratedClasses() {
        generatedClasses = workDirectory.resolve("generated-classes");
        for (int major = ShapesMain.OLDEST_CLASS_FILE_MAJOR_VERSION; major <= Jdks.NEWEST_CLASS_FILE_MAJOR_VERSION;
                major++) {
            String name = ShapesMain.CLASS_FILE_VERSION_CLOCK_PREFIX + major;
            ClassFiles.write(generatedClasses, name, GeneratedClocks.withClassFileVersion(name, major));
        }
    }

    @OnEachJdk
    void byDefaultRewritesEveryClassFileVersionItselfWithNoJvmWarning(int featureVersion,
            @TempDir Path runDirectory) {
        NativeLibraries.requireForThisMachine();
        Jdk jdk = Jdks.require(featureVersion);
        ForkResult result = run(jdk, runDirectory, OPTIONS);

        assertEquals("native-filter true", result.stdoutLineStartingWith("native-filter "), result.describe());
        assertProbedSitesCached(result);
        int versions = newestMajorVersion(jdk) - ShapesMain.OLDEST_CLASS_FILE_MAJOR_VERSION + 1;
        assertEquals(versions, result.labelled("ran").size(), result.describe());
        long[] counts = nativeCounts(result);
        assertTrue(counts[0] >= MAIN_CLASS + PROBED.size() + versions, "the native filter checked every class in"
                + " scope\n" + result.describe());
        assertEquals(MAIN_CLASS + PROBED.size() + versions, counts[1], "every class in scope that reads the clock was"
                + " rewritten natively, none by Java\n" + result.describe());
        assertEquals(1, result.stderr().size(), "only the banner: no JVM warning about native access\n"
                + result.describe());
        assertEquals("class-filter native", result.stdoutLineStartingWith("class-filter "), result.describe());
    }

    @OnEachJdk
    void turnedOffTheJavaTransformerRewritesTheSameClassesAlone(int featureVersion, @TempDir Path runDirectory) {
        Jdk jdk = Jdks.require(featureVersion);
        ForkResult result = run(jdk, runDirectory, OPTIONS + ",nativeFilter=false");

        assertEquals("native-filter false", result.stdoutLineStartingWith("native-filter "), result.describe());
        assertProbedSitesCached(result);
        assertEquals(0, nativeCounts(result)[0] + nativeCounts(result)[1], result.describe());
        assertEquals("class-filter java: nativeFilter=false", result.stdoutLineStartingWith("class-filter "),
                result.describe());
        assertTrue(AgentStderr.banner("tick=1s wait=park cache=always nativeFilter=false " + INCLUDE
                + " exclude=(none)").matcher(result.stderr().get(0)).matches(), result.describe());
        assertEquals(1, result.stderr().size(), result.describe());
    }

    @OnEachJdk
    void verboseTheReportAndTheMBeanTellWhatTheNativeFilterRewroteAsTheJavaEngineWouldTellItsOwn(int featureVersion,
            @TempDir Path runDirectory) throws IOException {
        NativeLibraries.requireForThisMachine();
        Jdk jdk = Jdks.require(featureVersion);
        Path nativeReport = runDirectory.resolve("native-report.json");
        Path javaReport = runDirectory.resolve("java-report.json");
        ForkResult nativeEngine = run(jdk, runDirectory, OPTIONS + ",verbose=true,report=" + nativeReport);
        ForkResult javaEngine = run(jdk, runDirectory, OPTIONS + ",verbose=true,report=" + javaReport
                + ",nativeFilter=false");
        String both = "native filter:\n" + nativeEngine.describe() + "\nJava transformer:\n" + javaEngine.describe();

        assertEquals("native-filter true", nativeEngine.stdoutLineStartingWith("native-filter "), both);
        int versions = newestMajorVersion(jdk) - ShapesMain.OLDEST_CLASS_FILE_MAJOR_VERSION + 1;
        assertEquals(MAIN_CLASS + PROBED.size() + versions, nativeCounts(nativeEngine)[1], "every class was rewritten"
                + " natively, with sites counted all the same\n" + both);
        List<String> rewroteLines = sorted(nativeEngine.stderr().subList(1, nativeEngine.stderr().size()));
        assertTrue(rewroteLines.size() > PROBED.size() + versions && rewroteLines.stream().allMatch(
                line -> line.startsWith("clock-agent: rewrote io.clockagent.it.fixtures.shapes.")), both);
        assertEquals(rewroteLines, sorted(javaEngine.stderr().subList(1, javaEngine.stderr().size())), both);
        assertEquals(reportedClasses(javaReport), reportedClasses(nativeReport), both);
        String counted = nativeEngine.stdoutLineStartingWith("counted ");
        assertTrue(counted.matches("counted [1-9]\\d* call sites [1-9]\\d* method references"), both);
        assertEquals(javaEngine.stdoutLineStartingWith("counted "), counted, both);
    }

    /**
     * A real aarch64 JVM, under emulation, loads the jar's aarch64 library, whose hook rewrites what the Java
     * transformer rewrites on this machine's JVM of the same release, as the verbose lines and the report show.
     */
    @Test
    void onAnAarch64JvmTheAarch64LibraryRewritesWhatTheJavaTransformerWould(@TempDir Path runDirectory)
            throws IOException {
        NativeLibraries.require(AARCH64_PLATFORM);
        EmulatedJdk aarch64 = EmulatedJdk.requireAarch64();
        Jdk sameRelease = Jdks.require(aarch64.jdk().featureVersion());
        Path nativeReport = runDirectory.resolve("aarch64-report.json");
        Path javaReport = runDirectory.resolve("java-report.json");
        String options = OPTIONS + ",verbose=true,report=";
        ForkResult emulated = run(new ForkedJvm(aarch64.jdk(), runDirectory).emulatedBy(aarch64.emulatorCommand()),
                aarch64.jdk(), options + nativeReport);
        ForkResult javaEngine = run(sameRelease, runDirectory, options + javaReport + ",nativeFilter=false");
        String both = "aarch64:\n" + emulated.describe() + "\nJava transformer:\n" + javaEngine.describe();

        assertEquals("os-arch aarch64", emulated.stdoutLineStartingWith("os-arch "), both);
        assertEquals("native-filter true", emulated.stdoutLineStartingWith("native-filter "), both);
        assertEquals("class-filter native", emulated.stdoutLineStartingWith("class-filter "), both);
        assertProbedSitesCached(emulated);
        int versions = newestMajorVersion(aarch64.jdk()) - ShapesMain.OLDEST_CLASS_FILE_MAJOR_VERSION + 1;
        assertEquals(MAIN_CLASS + PROBED.size() + versions, nativeCounts(emulated)[1], both);
        assertEquals(sorted(javaEngine.stderr().subList(1, javaEngine.stderr().size())),
                sorted(emulated.stderr().subList(1, emulated.stderr().size())), both);
        assertEquals(reportedClasses(javaReport), reportedClasses(nativeReport), both);
    }

    @OnEachJdk
    void aRequestedFilterWhoseLibraryCannotBeWrittenLeavesTheJavaTransformerServingAndSaysWhyOnce(int featureVersion,
            @TempDir Path runDirectory) {
        Path missing = runDirectory.resolve("no-such-directory");
        List<String> agentLines = runWithoutTemporaryDirectory(featureVersion, runDirectory, missing,
                OPTIONS + ",nativeFilter=true");

        assertEquals(2, agentLines.size(), "the banner, then one line saying why\n" + agentLines);
        assertTrue(agentLines.get(1).startsWith("clock-agent: native class filter not started, filtering in Java: ")
                && agentLines.get(1).contains(missing.toString()), agentLines.toString());
    }

    @OnEachJdk
    void byDefaultAFilterWhoseLibraryCannotBeWrittenLeavesTheJavaTransformerServingWithoutAWord(int featureVersion,
            @TempDir Path runDirectory) {
        List<String> agentLines = runWithoutTemporaryDirectory(featureVersion, runDirectory,
                runDirectory.resolve("no-such-directory"), OPTIONS);

        assertEquals(1, agentLines.size(), "the banner alone\n" + agentLines);
        assertTrue(AgentStderr.banner("tick=1s wait=park cache=always " + INCLUDE + " exclude=(none)")
                .matcher(agentLines.get(0)).matches(), agentLines.toString());
    }

    @OnEachJdk
    void onAPlatformTheJarCarriesNoLibraryForTheJavaTransformerServesAndARequestedFilterSaysWhy(int featureVersion,
            @TempDir Path runDirectory) {
        Jdk jdk = Jdks.require(featureVersion);
        String platform = "linux-" + UNBUILT_ARCHITECTURE;
        for (String options : List.of(OPTIONS, OPTIONS + ",nativeFilter=true")) {
            ForkResult result = run(jdk, runDirectory, options,
                    "-Dos.arch=" + UNBUILT_ARCHITECTURE);

            assertEquals("native-filter false", result.stdoutLineStartingWith("native-filter "), result.describe());
            assertProbedSitesCached(result);
            assertEquals("class-filter java: native class filter not started: the agent jar carries no library for "
                    + platform, result.stdoutLineStartingWith("class-filter "), result.describe());
            List<String> expectedLines = options.endsWith("nativeFilter=true")
                    ? List.of("clock-agent: native class filter not started, filtering in Java: the agent jar carries"
                            + " no library for " + platform)
                    : List.of();
            assertEquals(expectedLines, result.stderr().subList(1, result.stderr().size()), result.describe());
        }
    }

    @OnEachJdk
    void aTemporaryDirectoryMountedNoexecLeavesTheJavaTransformerServingAndNothingBehind(int featureVersion,
            @TempDir Path runDirectory) throws IOException {
        NativeLibraries.requireForThisMachine();
        Jdk jdk = Jdks.require(featureVersion);
        try (NoexecMount noexec = NoexecMount.require(runDirectory.resolve("noexec-tmp"))) {
            ForkResult result = run(jdk, runDirectory, OPTIONS + ",nativeFilter=true",
                    "-Djava.io.tmpdir=" + noexec.directory());

            assertEquals("native-filter false", result.stdoutLineStartingWith("native-filter "), result.describe());
            assertProbedSitesCached(result);
            List<String> agentLines = result.stderr().stream().filter(line -> line.startsWith("clock-agent: "))
                    .toList();
            assertEquals(2, agentLines.size(), "the banner, then one line saying why\n" + result.describe());
            assertTrue(agentLines.get(1).startsWith("clock-agent: native class filter not started, filtering in"
                    + " Java: java.lang.UnsatisfiedLinkError: ") && agentLines.get(1).contains(
                    noexec.directory().toString()), result.describe());
            assertEquals(List.of(), noexec.contents(), "the library and its directory are deleted");
        }
    }

    /**
     * A run whose library cannot be written, in which the Java transformer rewrites and the MBean says why; returns
     * the agent's lines.
     */
    private static List<String> runWithoutTemporaryDirectory(int featureVersion, Path runDirectory, Path missing,
            String options) {
        NativeLibraries.requireForThisMachine();
        ForkResult result = run(Jdks.require(featureVersion), runDirectory, options,
                "-Djava.io.tmpdir=" + missing);

        assertEquals("native-filter false", result.stdoutLineStartingWith("native-filter "), result.describe());
        assertProbedSitesCached(result);
        String classFilter = result.stdoutLineStartingWith("class-filter ");
        assertTrue(classFilter.startsWith("class-filter java: native class filter not started: ")
                && classFilter.contains(missing.toString()), result.describe());
        // JDK 25 adds its own warning about the missing directory; the agent's lines are the point here.
        return result.stderr().stream().filter(line -> line.startsWith("clock-agent: ")).toList();
    }

    /**
     * Attached through the jar, the C hook serves at once: it rewrites the class in scope loaded before the attach and
     * the one loaded after it, and a detach stops it and restores both.
     */
    @OnEachJdk
    void attachedThroughTheJarTheHookRewritesAndADetachRestoresWhatItRewrote(int featureVersion,
            @TempDir Path runDirectory) {
        NativeLibraries.requireForThisMachine();
        Jdk jdk = Jdks.require(featureVersion);
        // cache=always: the probes read too little for cache=auto to cache, and show the sites by cached values.
        try (LiveJvm target = new ForkedJvm(jdk, runDirectory)
                .classPath(BuildOutputs.testClasses())
                .startMain(AttachTargetMain.class.getName())) {
            target.awaitLine("ready");
            ForkResult attach = new ForkedJvm(jdk, runDirectory).runJar(BuildOutputs.agentJar(), "attach",
                    Long.toString(target.pid()), "include=" + AttachTargetMain.class.getPackageName()
                            + ",tick=1s,cache=always");
            String before = target.ask("native-filter", "native-filter rewritten ");
            target.ask("first-tick", "ticking");
            DistinctMillis earlyWithAgent = DistinctMillis.parse(target.ask("early", "early "));
            DistinctMillis lateWithAgent = DistinctMillis.parse(target.ask("late", "late "));
            String after = target.ask("native-filter", "native-filter rewritten ");
            ForkResult detach = new ForkedJvm(jdk, runDirectory).runJar(BuildOutputs.agentJar(), "detach",
                    Long.toString(target.pid()));
            DistinctMillis earlyDetached = DistinctMillis.parse(target.ask("both", "early "));
            DistinctMillis lateDetached = DistinctMillis.parse(target.awaitLine("late "));
            String describe = "before: " + before + ", after: " + after + "\nattach: " + attach.describe()
                    + "\ndetach: " + detach.describe() + "\ntarget stderr: " + target.stderr();

            assertEquals(0, attach.exitStatus(), describe);
            assertEquals("native-filter rewritten 1", before, "EarlyClock, loaded before the attach, was rewritten"
                    + " natively\n" + describe);
            assertTrue(earlyWithAgent.cached(), "EarlyClock: " + earlyWithAgent + "\n" + describe);
            assertTrue(lateWithAgent.cached(), "LateClock, loaded later: " + lateWithAgent + "\n" + describe);
            assertEquals("native-filter rewritten 2", after, "LateClock was rewritten natively too\n" + describe);
            assertEquals(0, detach.exitStatus(), describe);
            assertTrue(target.stderr().contains("clock-agent: detached: ticker stopped, original code restored in 3"
                    + " classes"), describe);
            assertTrue(lateDetached.direct(), "LateClock after the detach: " + lateDetached + "\n" + describe);
            assertTrue(earlyDetached.direct(), "EarlyClock after the detach: " + earlyDetached + "\n" + describe);
        }
    }

    private static ForkResult run(Jdk jdk, Path runDirectory, String options, String... jvmOptions) {
        return run(new ForkedJvm(jdk, runDirectory), jdk, options, jvmOptions);
    }

    private static ForkResult run(ForkedJvm jvm, Jdk jdk, String options, String... jvmOptions) {
        ForkResult result = jvm
                .javaagent(BuildOutputs.agentJar(), options)
                .option(jvmOptions)
                .classPath(BuildOutputs.testClasses())
                .runMain(NativeFilterMain.class.getName(), BuildOutputs.testClasses().toString(),
                        generatedClasses.toString(), Integer.toString(newestMajorVersion(jdk)),
                        Long.toString(MBEAN_PATIENCE_MILLIS));
        assertEquals(0, result.exitStatus(), result.describe());
        return result;
    }

    private static void assertProbedSitesCached(ForkResult result) {
        for (String label : PROBED) {
            DistinctMillis probe = DistinctMillis.parse(result.stdoutLineStartingWith("probe " + label + " "));
            assertTrue(probe.cached(), label + " reads the cached clock: " + probe + "\n" + result.describe());
        }
    }

    /** The report's line for each rewritten class, with its methods and their counts, in order. */
    private static List<String> reportedClasses(Path report) throws IOException {
        return sorted(Files.readAllLines(report).stream().filter(line -> line.contains("{\"class\": ")).map(
                line -> line.replaceFirst(",$", "")).toList());
    }

    private static List<String> sorted(List<String> lines) {
        return lines.stream().sorted().toList();
    }

    /** {@code [scanned, rewritten]} as the MBean counted them for the native filter. */
    private static long[] nativeCounts(ForkResult result) {
        Matcher counts = NATIVE_COUNTS.matcher(result.stdoutLineStartingWith("natively scanned "));
        assertTrue(counts.matches(), result.describe());
        return new long[] {Long.parseLong(counts.group(1)), Long.parseLong(counts.group(2))};
    }

    private static int newestMajorVersion(Jdk jdk) {
        return Math.min(Jdks.NEWEST_CLASS_FILE_MAJOR_VERSION, jdk.maxClassFileMajorVersion());
    }
}
