package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.operability.OperableServiceMain;
import io.clockagent.it.fixtures.operability.sites.KnownSites;
import io.clockagent.it.fixtures.systemloader.SystemLoaderMain;
import io.clockagent.it.fixtures.systemloader.sites.ClockReadingSystemLoader;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.DistinctMillis;
import io.clockagent.it.support.EmulatedJdk;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdk;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.LibraryBesideJar;
import io.clockagent.it.support.NativeLibraries;
import io.clockagent.it.support.OnEachJdk;
import io.clockagent.it.support.PreloadLibrary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code -agentpath} entry: the library the jar writes with {@code java -jar clock-agent.jar agentpath}, next to
 * the jar, started with nothing but {@code -agentpath:} naming it. It caches the same sites as {@code -javaagent},
 * prints the same banner and the same one-line errors, keeps class-data sharing's archived module graph, and serves
 * runtimes linked without {@code java.instrument}, where {@code -javaagent} stops the JVM.
 */
class AgentPathTest {

    private static final String SITES = KnownSites.class.getPackageName();
    private static final String OPTIONS = "include=" + SITES + ",tick=1s,cache=always";
    private static final String AARCH64_PLATFORM = "linux-aarch64";
    private static final String MISSING_METHOD_ERROR = "java.lang.NoSuchMethodError: rewroteNatively";
    private static final String BAD_TICK = "include=" + SITES + ",tick=5";
    /**
     * Past the start delay and the start thread's first one-second step of counting reads, after which the Java side
     * would have started if the clock were read often.
     */
    private static final int SELDOM_READ_SECONDS = 3;

    @OnEachJdk
    void cachesTheSitesInScopeWithTheJavaagentsBanner(int featureVersion, @TempDir Path runDirectory)
            throws IOException {
        Jdk jdk = Jdks.require(featureVersion);
        Path library = LibraryBesideJar.write(jdk, runDirectory);

        ForkResult result = probe(jdk, runDirectory, library, OPTIONS);

        assertEquals(0, result.exitStatus(), result.describe());
        assertTrue(DistinctMillis.parse(result.stdoutLineStartingWith("probe ")).cached(), result.describe());
        assertEquals("tickers 1", result.stdoutLineStartingWith("tickers "),
                "one ticker, started off the startup path\n" + result.describe());
        assertEquals(1, result.stderr().size(), "the banner alone\n" + result.describe());
        assertTrue(AgentStderr.banner("tick=1s wait=park cache=always include=" + SITES + " exclude=(none)")
                .matcher(result.stderr().get(0)).matches(), result.describe());
    }

    /**
     * A JVM that reads the clock ten times a second has no use for a ticker and never loads the agent's Java side; one
     * that reads it thousands of times a second gets it, with cache=auto deciding there whether caching pays.
     */
    @OnEachJdk
    void theTickerStartsOnlyOnceTheClockIsReadOftenEnoughThatCachingCouldPay(int featureVersion,
            @TempDir Path runDirectory) throws IOException {
        Jdk jdk = Jdks.require(featureVersion);
        Path library = LibraryBesideJar.write(jdk, runDirectory);

        ForkResult result = new ForkedJvm(jdk, runDirectory).agentpath(library, "include=" + SITES)
                .classPath(BuildOutputs.testClasses())
                .runMain(OperableServiceMain.class.getName(), "sites", "seldom-reads " + SELDOM_READ_SECONDS,
                        "keep-reading", "await-ticker");

        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals(List.of("sites read", "tickers 0", "reading", "tickers 1"), result.stdout(), result.describe());
    }

    /** The Java transformer is -javaagent's alone: asked for through -agentpath, the agent says so and caches. */
    @OnEachJdk
    void nativeFilterFalseSaysInOneLineThatItHasNoEffectHere(int featureVersion, @TempDir Path runDirectory)
            throws IOException {
        Jdk jdk = Jdks.require(featureVersion);
        Path library = LibraryBesideJar.write(jdk, runDirectory);

        ForkResult result = probe(jdk, runDirectory, library, OPTIONS + ",nativeFilter=false");

        assertEquals(0, result.exitStatus(), result.describe());
        assertTrue(DistinctMillis.parse(result.stdoutLineStartingWith("probe ")).cached(), result.describe());
        assertEquals(2, result.stderr().size(), "the banner and the one line\n" + result.describe());
        assertTrue(AgentStderr.banner("tick=1s wait=park cache=always nativeFilter=false include=" + SITES
                + " exclude=(none)").matcher(result.stderr().get(0)).matches(), result.describe());
        assertEquals("clock-agent: nativeFilter=false has no effect through -agentpath, whose filter is this native"
                + " hook alone; the Java transformer serves through -javaagent", result.stderr().get(1),
                result.describe());
    }

    @OnEachJdk
    void aBadOptionIsTheJavaagentsOneLineAndTheServiceRunsWithoutIt(int featureVersion, @TempDir Path runDirectory)
            throws IOException {
        Jdk jdk = Jdks.require(featureVersion);
        Path library = LibraryBesideJar.write(jdk, runDirectory);

        ForkResult agentPath = new ForkedJvm(jdk, runDirectory).agentpath(library, BAD_TICK)
                .classPath(BuildOutputs.testClasses()).runMain(OperableServiceMain.class.getName(), "tickers");
        ForkResult javaAgent = new ForkedJvm(jdk, runDirectory).javaagent(BuildOutputs.agentJar(), BAD_TICK)
                .classPath(BuildOutputs.testClasses()).runMain(OperableServiceMain.class.getName(), "tickers");

        assertEquals(0, agentPath.exitStatus(), agentPath.describe());
        assertEquals(List.of("tickers 0"), agentPath.stdout(), agentPath.describe());
        assertEquals(1, agentPath.stderr().size(), agentPath.describe());
        assertTrue(agentPath.stderr().get(0).startsWith(AgentStderr.OFF_PREFIX + "bad duration 'tick=5'"),
                agentPath.describe());
        assertEquals(javaAgent.stderr(), agentPath.stderr(), "the same line as -javaagent's\n" + javaAgent.describe());
    }

    @OnEachJdk
    void strictStopsTheJvmBeforeMainWithTheJavaagentsLine(int featureVersion, @TempDir Path runDirectory)
            throws IOException {
        Jdk jdk = Jdks.require(featureVersion);
        Path library = LibraryBesideJar.write(jdk, runDirectory);
        String options = BAD_TICK + ",strict=true";

        ForkResult agentPath = new ForkedJvm(jdk, runDirectory).agentpath(library, options)
                .classPath(BuildOutputs.testClasses()).runMain(OperableServiceMain.class.getName(), "tickers");
        ForkResult javaAgent = new ForkedJvm(jdk, runDirectory).javaagent(BuildOutputs.agentJar(), options)
                .classPath(BuildOutputs.testClasses()).runMain(OperableServiceMain.class.getName(), "tickers");

        assertEquals(1, agentPath.exitStatus(), agentPath.describe());
        assertEquals(List.of(), agentPath.stdout(), "main never ran\n" + agentPath.describe());
        assertEquals(1, agentPath.stderr().size(), agentPath.describe());
        assertTrue(agentPath.stderr().get(0).startsWith(AgentStderr.STRICT_STOP_PREFIX), agentPath.describe());
        assertEquals(javaAgent.stderr(), agentPath.stderr(), "the same line as -javaagent's\n" + javaAgent.describe());
    }

    @ParameterizedTest(name = "on JDK {0}")
    @ValueSource(ints = {Jdks.JDK_17, Jdks.JDK_25})
    void keepsTheArchivedModuleGraphThatJavaagentGivesUp(int featureVersion, @TempDir Path runDirectory)
            throws IOException {
        Jdk jdk = Jdks.require(featureVersion);
        Path library = LibraryBesideJar.write(jdk, runDirectory);

        ForkResult agentPath = new ForkedJvm(jdk, runDirectory).agentpath(library, OPTIONS).option("-Xlog:cds")
                .classPath(BuildOutputs.testClasses()).runMain(OperableServiceMain.class.getName(), "tickers");
        ForkResult javaAgent = new ForkedJvm(jdk, runDirectory).javaagent(BuildOutputs.agentJar(), OPTIONS)
                .option("-Xlog:cds").classPath(BuildOutputs.testClasses())
                .runMain(OperableServiceMain.class.getName(), "tickers");

        assertTrue(agentPath.stdout().stream().anyMatch(line -> line.endsWith("full module graph: enabled")),
                agentPath.describe());
        assertTrue(javaAgent.stdout().stream().anyMatch(line -> line.endsWith("full module graph: disabled")),
                "-javaagent's price, which this entry avoids\n" + javaAgent.describe());
    }

    /**
     * A runtime of {@code java.base} alone (and one with {@code java.management}, where the agent's Java side finds
     * more than it needs), as container images are made: -agentpath caches and reports, -javaagent cannot start.
     */
    @ParameterizedTest(name = "on JDK {0}")
    @ValueSource(ints = {Jdks.JDK_17, Jdks.JDK_25})
    void servesARuntimeLinkedWithoutJavaInstrument(int featureVersion, @TempDir Path runDirectory)
            throws IOException, InterruptedException {
        Jdk full = Jdks.require(featureVersion);
        Path library = LibraryBesideJar.write(full, runDirectory);
        for (String modules : List.of("java.base", "java.base,java.management")) {
            Jdk linked = jlink(full, modules, runDirectory.resolve("runtime-" + modules.replace(',', '-')));

            ForkResult agentPath = probe(linked, runDirectory, library, OPTIONS + ",verbose=true,report=summary");
            ForkResult javaAgent = new ForkedJvm(linked, runDirectory).javaagent(BuildOutputs.agentJar(), OPTIONS)
                    .classPath(BuildOutputs.testClasses()).runMain(OperableServiceMain.class.getName(), "tickers");

            assertEquals(0, agentPath.exitStatus(), modules + "\n" + agentPath.describe());
            assertTrue(DistinctMillis.parse(agentPath.stdoutLineStartingWith("probe ")).cached(),
                    modules + "\n" + agentPath.describe());
            assertTrue(agentPath.stderr().stream().anyMatch(line -> line.startsWith(
                    "clock-agent: rewrote " + KnownSites.class.getName() + ": ")), "verbose's line\n"
                    + agentPath.describe());
            assertTrue(agentPath.stderr().stream().anyMatch(line -> line.matches(
                    "clock-agent: report: \\d+ classes scanned, [1-9]\\d* rewritten, 0 failed; .*")),
                    "the report at exit\n" + agentPath.describe());
            assertEquals(1, javaAgent.exitStatus(), modules + "\n" + javaAgent.describe());
            // The JVM prints it to stdout.
            assertTrue(javaAgent.stdout().contains("Module java.instrument may be missing from runtime image."),
                    "the JVM's own error, before any agent code runs\n" + javaAgent.describe());
        }
    }

    /** Both entries in one JVM, in either order: one copy is active and caches, and the other stands aside. */
    @OnEachJdk
    void withBothEntriesOneCopyCachesAndTheOtherSaysItStandsAside(int featureVersion, @TempDir Path runDirectory)
            throws IOException {
        Jdk jdk = Jdks.require(featureVersion);
        Path library = LibraryBesideJar.write(jdk, runDirectory);
        ForkResult agentPathFirst = probe(new ForkedJvm(jdk, runDirectory).agentpath(library, OPTIONS)
                .javaagent(BuildOutputs.agentJar(), OPTIONS));
        ForkResult javaAgentFirst = probe(new ForkedJvm(jdk, runDirectory).javaagent(BuildOutputs.agentJar(), OPTIONS)
                .agentpath(library, OPTIONS));

        for (ForkResult result : List.of(agentPathFirst, javaAgentFirst)) {
            assertEquals(0, result.exitStatus(), result.describe());
            assertTrue(DistinctMillis.parse(result.stdoutLineStartingWith("probe ")).cached(), result.describe());
            assertEquals("tickers 1", result.stdoutLineStartingWith("tickers "), result.describe());
            assertEquals(2, result.stderr().size(), "a banner and a copy standing aside\n" + result.describe());
        }
        assertTrue(agentPathFirst.stderr().contains("clock-agent: already active in this JVM; this copy does nothing"),
                agentPathFirst.describe());
        assertTrue(javaAgentFirst.stderr().contains(
                "clock-agent: already active in this JVM; the -agentpath copy does nothing"),
                javaAgentFirst.describe());
    }

    /**
     * The hook goes on at VMInit, after the JVM has created the system class loader: one of the application's own,
     * in scope, is retransformed then, and its clock read caches like any other.
     */
    @OnEachJdk
    void aSystemClassLoaderDefinedBeforeTheHookIsRewrittenAllTheSame(int featureVersion, @TempDir Path runDirectory)
            throws IOException {
        Jdk jdk = Jdks.require(featureVersion);
        Path library = LibraryBesideJar.write(jdk, runDirectory);
        String loaderPackage = ClockReadingSystemLoader.class.getPackageName();

        ForkResult result = new ForkedJvm(jdk, runDirectory)
                .agentpath(library, "include=" + loaderPackage + ",tick=1s,cache=always")
                .option("-Djava.system.class.loader=" + ClockReadingSystemLoader.class.getName())
                .classPath(BuildOutputs.testClasses()).runMain(SystemLoaderMain.class.getName());

        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals("system loader clock-reading-system-loader", result.stdoutLineStartingWith("system loader "),
                result.describe());
        assertTrue(DistinctMillis.parse(result.stdoutLineStartingWith("probe ")).cached(), result.describe());
        // Beside the JVM's own warning that a custom system class loader turns archived application classes off.
        List<String> agentLines = result.stderr().stream().filter(line -> line.startsWith("clock-agent:")).toList();
        assertEquals(1, agentLines.size(), "the banner alone\n" + result.describe());
        assertTrue(AgentStderr.banner("tick=1s wait=park cache=always include=" + loaderPackage + " exclude=(none)")
                .matcher(agentLines.get(0)).matches(), result.describe());
    }

    @OnEachJdk
    void aLibraryWithoutTheJarBesideItSaysSoInOneLineAndTheServiceRuns(int featureVersion,
            @TempDir Path runDirectory) throws IOException {
        Jdk jdk = Jdks.require(featureVersion);
        Path library = LibraryBesideJar.write(jdk, runDirectory);
        Path alone = Files.createDirectory(runDirectory.resolve("alone")).resolve(library.getFileName());
        Files.move(library, alone);

        ForkResult result = new ForkedJvm(jdk, runDirectory).agentpath(alone, OPTIONS)
                .classPath(BuildOutputs.testClasses()).runMain(OperableServiceMain.class.getName(), "tickers");

        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals(List.of("tickers 0"), result.stdout(), result.describe());
        assertEquals(List.of(AgentStderr.OFF_PREFIX + "-agentpath needs " + alone.resolveSibling("clock-agent.jar")
                + ", which holds the ticker, next to the library (java -jar clock-agent.jar agentpath writes the"
                + " library there)"), result.stderr(), result.describe());
    }

    /**
     * A clock-agent.jar of another release beside the library, whose Java side lacks a method the library calls: one
     * line says so, no part of the Java side starts (no ticker, no report), the service runs on the direct clock, and
     * no exception of the agent's reaches it (the Java side loads on the main thread at VMInit here, as report=summary
     * counts the sites from the first class).
     */
    @OnEachJdk
    void aJarOfAnotherReleaseBesideTheLibrarySaysSoInOneLineAndTheServiceRuns(int featureVersion,
            @TempDir Path runDirectory) throws IOException {
        assertAnotherReleaseSaidInOneLine(Jdks.require(featureVersion), runDirectory, false);
    }

    /**
     * The same, with memory for a copy of the exception's text short (a preloaded strdup fails for it): the line still
     * names the exception, as the library writes an exception's line where it has room for it, allocating nothing.
     */
    @ParameterizedTest(name = "on JDK {0}")
    @ValueSource(ints = {Jdks.JDK_17, Jdks.JDK_25})
    void anExceptionsLineNeedsNoMemory(int featureVersion, @TempDir Path runDirectory) throws IOException {
        assertAnotherReleaseSaidInOneLine(Jdks.require(featureVersion), runDirectory, true);
    }

    private static void assertAnotherReleaseSaidInOneLine(Jdk jdk, Path runDirectory, boolean strdupFails)
            throws IOException {
        Path library = LibraryBesideJar.write(jdk, runDirectory);
        ForkedJvm jvm = new ForkedJvm(jdk, runDirectory);
        if (strdupFails) {
            jvm.environment("LD_PRELOAD", PreloadLibrary.build("failing_strdup").toString())
                    .environment("FAILING_STRDUP_TEXT", MISSING_METHOD_ERROR);
        }
        renameInstallationMethod(library.resolveSibling("clock-agent.jar"), "rewroteNatively", "rewroteNativelx");

        ForkResult result = jvm.agentpath(library, OPTIONS + ",report=summary")
                .classPath(BuildOutputs.testClasses())
                .runMain(OperableServiceMain.class.getName(), "sites", "tickers");

        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals(List.of("sites read", "tickers 0"), result.stdout(), result.describe());
        assertEquals(2, result.stderr().size(), "the banner and the one line\n" + result.describe());
        assertEquals("clock-agent: the ticker did not start, so reads take the direct clock: could not load the agent"
                + " from " + library.resolveSibling("clock-agent.jar") + ": " + MISSING_METHOD_ERROR,
                result.stderr().get(1), result.describe());
    }

    /**
     * Renames a method of the jar's Installation, as another release of the jar would lack it: its name in the
     * constant pool replaced by one of the same length, which leaves every offset of the class file as it was.
     */
    private static void renameInstallationMethod(Path jar, String name, String renamed) throws IOException {
        byte[] from = name.getBytes(StandardCharsets.US_ASCII);
        byte[] to = renamed.getBytes(StandardCharsets.US_ASCII);
        assertEquals(from.length, to.length, "a rename of the same length");
        try (FileSystem zip = FileSystems.newFileSystem(jar, (ClassLoader) null)) {
            Path entry = zip.getPath("io/clockagent/agent/internal/install/Installation.class");
            byte[] bytes = Files.readAllBytes(entry);
            int found = 0;
            for (int at = 0; at + from.length <= bytes.length; at++) {
                if (Arrays.equals(bytes, at, at + from.length, from, 0, from.length)) {
                    System.arraycopy(to, 0, bytes, at, to.length);
                    found++;
                }
            }
            assertEquals(1, found, "the method's name once in Installation's constant pool");
            Files.write(entry, bytes);
        }
    }

    /** The jar's aarch64 library, in a real aarch64 JVM under emulation. */
    @Test
    void anAarch64JvmCachesThroughTheAarch64Library(@TempDir Path runDirectory) throws IOException {
        NativeLibraries.require(AARCH64_PLATFORM);
        EmulatedJdk aarch64 = EmulatedJdk.requireAarch64();
        Path library = LibraryBesideJar.write(emulated(aarch64, runDirectory), runDirectory);

        // Probed twice: under emulation the first probe can begin before the ticker, its thread just started, has
        // published a value (one CI run read the direct clock for its first ~185 ms); the second finds it settled.
        ForkResult result = emulated(aarch64, runDirectory).agentpath(library, OPTIONS)
                .classPath(BuildOutputs.testClasses())
                .runMain(OperableServiceMain.class.getName(), "sites", "await-ticker", "probe", "probe");

        assertEquals(0, result.exitStatus(), result.describe());
        List<String> probes = result.stdout().stream().filter(line -> line.startsWith("probe ")).toList();
        assertEquals(2, probes.size(), result.describe());
        assertTrue(DistinctMillis.parse(probes.get(1)).cached(), result.describe());
        assertEquals("tickers 1", result.stdoutLineStartingWith("tickers "),
                "one ticker, started off the startup path\n" + result.describe());
        assertTrue(AgentStderr.banner("tick=1s wait=park cache=always include=" + SITES + " exclude=(none)")
                .matcher(result.stderr().get(0)).matches(), result.describe());
    }

    private static ForkedJvm emulated(EmulatedJdk jdk, Path runDirectory) {
        return new ForkedJvm(jdk.jdk(), runDirectory).emulatedBy(jdk.emulatorCommand());
    }

    private static ForkResult probe(Jdk jdk, Path runDirectory, Path library, String options) {
        return probe(new ForkedJvm(jdk, runDirectory), library, options);
    }

    private static ForkResult probe(ForkedJvm jvm, Path library, String options) {
        return probe(jvm.agentpath(library, options));
    }

    private static ForkResult probe(ForkedJvm withAgents) {
        return withAgents.classPath(BuildOutputs.testClasses())
                .runMain(OperableServiceMain.class.getName(), "sites", "await-ticker", "probe");
    }

    /** A runtime image of the given modules, linked from a full JDK (from its jmods, or its own image on 24+). */
    private static Jdk jlink(Jdk full, String modules, Path output) throws IOException, InterruptedException {
        Process jlink = new ProcessBuilder(full.home().resolve("bin/jlink").toString(), "--add-modules", modules,
                "--output", output.toString()).redirectErrorStream(true).start();
        String printed = new String(jlink.getInputStream().readAllBytes());
        assertTrue(jlink.waitFor(120, TimeUnit.SECONDS) && jlink.exitValue() == 0, "jlink: " + printed);
        return new Jdk(full.featureVersion(), output);
    }
}
