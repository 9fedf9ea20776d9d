package io.clockagent.agent.internal.nativefilter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.agent.internal.classfile.CallSiteRewriter;
import io.clockagent.agent.internal.classfile.ClassFileException;
import io.clockagent.agent.internal.classfile.ClockMethod;
import io.clockagent.agent.internal.classfile.ClockMethods;
import io.clockagent.agent.internal.classfile.GeneratedClasses;
import io.clockagent.agent.internal.classfile.LibraryClock;
import io.clockagent.agent.internal.classfile.NewerFormatException;
import io.clockagent.agent.internal.classfile.RewritingClassLoader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The native filter's rewriter (agent/src/main/c/call_site_rewriter.c) against the Java one, class file by class file:
 * where C rewrites, the bytes are the Java rewriter's exactly; where the Java rewriter refuses a class, C leaves it to
 * Java; and on well-formed class files C decides alone everywhere Java rewrites. Every other class file is rewritten as
 * one where cachedInstants applies, which redirects java.time's reads of instants too. The corpus: every class of the
 * Byte Buddy, Kotlin, Scala and Groovy runtime jars, and each again with its version patched to one newer than the
 * rewriters know (70 to 75 in turn); the fixtures, and each at every one of those versions; generated classes of every
 * version from Java 1.1 to 75; and thousands of truncated and corrupted copies of a class that reads the clock and of
 * one that reads java.time's system clock. Class
 * files of those newer versions with a constant of a tag no known version has are refused by both. Built through a
 * small driver, agent/src/test/c/, for each architecture the agent jar carries a library for, the other one run under
 * user-mode emulation.
 */
class NativeRewriterParityTest {

    private static final String TARGET = "java/lang/ClockAgentCachedClock";
    /** Where the build writes class_file_format.h from the Java rewriter's constants; relative to the agent module. */
    private static final String NATIVE_HEADERS = "target/generated-sources/c";
    private static final long BUILD_AND_RUN_TIMEOUT_SECONDS = 120;
    private static final int CORRUPTION_TRIALS = 3_000;
    private static final long CORRUPTION_SEED = 20261122L;
    /**
     * At each newer version: the generated class of that version, and the three fixtures and three generated classes
     * that read the clock, patched to it.
     */
    private static final int NEWER_CLOCK_READERS_EACH = 7;
    /** Tags no class file version up to Java 25's has: the next to be assigned, the gaps, and the extremes. */
    private static final List<Integer> UNKNOWN_TAGS = List.of(21, 2, 13, 14, 0, 255);
    /** Inputs made to probe the native code, or that once broke it; FuzzRegressionReplayTest replays them too. */
    private static final Path FUZZ_REGRESSIONS = Path.of("src/test/c/fuzz/regressions");
    /**
     * A class from each jar whose every class file joins the corpus: javac's output as Byte Buddy ships it, and what
     * the Kotlin, Scala and Groovy compilers write, which differ from javac in constant pools and inlined code.
     */
    private static final List<Class<?>> OTHER_COMPILERS_OUTPUT = List.of(ByteBuddy.class, kotlin.Unit.class,
            scala.Option.class, groovy.lang.GroovyObject.class);
    /**
     * A class from each jar of a library clock (LibraryClock), whose every class file joins the corpus too: their
     * classes read their library's clock, which both rewriters redirect by default.
     */
    private static final List<Class<?>> LIBRARY_CLOCK_USERS = List.of(
            com.baomidou.mybatisplus.core.toolkit.Sequence.class, cn.hutool.core.lang.Snowflake.class,
            com.alibaba.csp.sentinel.SphU.class, org.apache.dubbo.common.utils.TimeUtils.class);

    /** The library clocks and one of the service's own, whose uses both rewriters check to be static. */
    private static final ClockMethods CLOCKS = RewritingClassLoader.WITH_OWN_CLOCK;

    @TempDir
    Path workDirectory;

    @ParameterizedTest(name = "built for {0}")
    @ValueSource(strings = {"amd64", "aarch64", "amd64-musl"})
    void theNativeRewriterAgreesWithTheJavaRewriterOnEveryClassFile(String arch) throws Exception {
        CToolchain toolchain = CToolchain.require(arch);
        Path driver = buildDriver(toolchain);
        Map<Path, Boolean> corpus = new LinkedHashMap<>();
        writeWellFormed(corpus);
        writeCorrupted(corpus);

        Map<Path, String> outcomes = run(toolchain, driver, corpus.keySet());

        CallSiteRewriter java = new CallSiteRewriter(TARGET, CLOCKS);
        int position = 0;
        int nativelyRewritten = 0;
        int libraryClockReaders = 0;
        CallSiteRewriter withoutLibraryClocks = new CallSiteRewriter(TARGET, ClockMethods.NONE);
        Map<Boolean, Integer> timeReadsRewrittenNativelyByMode = new TreeMap<>();
        Map<Integer, Integer> nativelyRewrittenByNewerVersion = new TreeMap<>();
        List<String> disagreements = new ArrayList<>();
        for (Map.Entry<Path, Boolean> file : corpus.entrySet()) {
            String outcome = outcomes.get(file.getKey());
            byte[] original = Files.readAllBytes(file.getKey());
            boolean cachedInstants = cachedInstants(position++);
            byte[] expected;
            try {
                expected = java.rewrite(original, cachedInstants);
            } catch (ClassFileException refused) {
                if (!"LEFT_TO_JAVA".equals(outcome)) {
                    disagreements.add(file.getKey() + ": Java refuses (" + refused.getMessage() + "), C says "
                            + outcome);
                }
                continue;
            }
            boolean wellFormed = file.getValue();
            if ("DONE".equals(outcome)) {
                nativelyRewritten++;
                if (wellFormed && file.getKey().getFileName().toString().startsWith("TimeReads")) {
                    timeReadsRewrittenNativelyByMode.merge(cachedInstants, 1, Integer::sum);
                }
                int major = (original[6] & 0xff) << 8 | original[7] & 0xff;
                if (wellFormed && major > CallSiteRewriter.NEWEST_KNOWN_MAJOR_VERSION) {
                    nativelyRewrittenByNewerVersion.merge(major, 1, Integer::sum);
                }
                libraryClockReaders += wellFormed && !Arrays.equals(expected,
                        withoutLibraryClocks.rewrite(original, cachedInstants)) ? 1 : 0;
                byte[] actual = Files.readAllBytes(Path.of(file.getKey() + ".out"));
                if (expected == null || !Arrays.equals(expected, actual)) {
                    disagreements.add(file.getKey() + ": C rewrote it " + (expected == null
                            ? "where Java leaves it alone" : "otherwise than Java"));
                }
            } else if (expected != null && (wellFormed || !"LEFT_TO_JAVA".equals(outcome))) {
                disagreements.add(file.getKey() + ": Java rewrites it, C says " + outcome);
            } else if (expected == null && wellFormed && !"NOT_NEEDED".equals(outcome)) {
                disagreements.add(file.getKey() + ": Java leaves it alone, C says " + outcome);
            }
        }

        assertEquals(List.of(), disagreements, disagreements.size() + " of " + corpus.size() + " class files");
        assertTrue(nativelyRewritten >= 52, "the generated clock readers and their newer copies alone are 52;"
                + " rewritten natively: " + nativelyRewritten);
        System.out.println("parity corpus: rewritten natively, by newer version: " + nativelyRewrittenByNewerVersion
                + "; rewritten natively with a library clock's uses redirected: " + libraryClockReaders);
        assertTrue(libraryClockReaders >= 2 * LIBRARY_CLOCK_USERS.size(), "the libraries' own classes read their"
                + " clocks, at their version and a newer one: " + libraryClockReaders);
        int timeReadsCopies = 1 + GeneratedClasses.NEWER_MAJOR_VERSIONS.size();
        assertEquals(timeReadsCopies, timeReadsRewrittenNativelyByMode.getOrDefault(false, 0)
                + timeReadsRewrittenNativelyByMode.getOrDefault(true, 0), "every copy of the java.time fixture");
        assertTrue(timeReadsRewrittenNativelyByMode.getOrDefault(false, 0) > 0
                && timeReadsRewrittenNativelyByMode.getOrDefault(true, 0) > 0,
                "the java.time fixture rewritten natively with and without cachedInstants: "
                + timeReadsRewrittenNativelyByMode);
        for (int major : GeneratedClasses.NEWER_MAJOR_VERSIONS) {
            assertTrue(nativelyRewrittenByNewerVersion.getOrDefault(major, 0) >= NEWER_CLOCK_READERS_EACH,
                    "the fixtures and generated classes alone read the clock in " + NEWER_CLOCK_READERS_EACH
                    + " class files of each newer version; rewritten natively: " + nativelyRewrittenByNewerVersion);
        }
    }

    /**
     * Class files of each version newer than the rewriters know with one more constant, of a tag no known version has,
     * at the end of the pool: the Java rewriter refuses each, and C leaves each to it, changing nothing.
     */
    @ParameterizedTest(name = "built for {0}")
    @ValueSource(strings = {"amd64", "aarch64", "amd64-musl"})
    void bothRewritersRefuseANewerClassFileWithAConstantOfATagTheyDoNotKnow(String arch) throws Exception {
        CToolchain toolchain = CToolchain.require(arch);
        Path driver = buildDriver(toolchain);
        Path directory = Files.createDirectories(workDirectory.resolve("unknown-tags"));
        Map<Path, Boolean> corpus = new LinkedHashMap<>();
        byte[] javac = RewritingClassLoader.originalBytes(RewritingClassLoader.FIXTURES + "ControlFlow");
        for (int major : GeneratedClasses.NEWER_MAJOR_VERSIONS) {
            for (int tag : UNKNOWN_TAGS) {
                write(corpus, directory, "ControlFlow-" + major + "-tag-" + tag,
                        GeneratedClasses.withUnknownConstant(GeneratedClasses.withMajorVersion(javac, major), tag),
                        true);
            }
        }

        Map<Path, String> outcomes = run(toolchain, driver, corpus.keySet());

        CallSiteRewriter java = new CallSiteRewriter(TARGET, CLOCKS);
        for (Path file : corpus.keySet()) {
            byte[] classFile = Files.readAllBytes(file);
            assertThrows(NewerFormatException.class, () -> java.rewrite(classFile, false), file.toString());
            assertEquals("LEFT_TO_JAVA", outcomes.get(file), file.toString());
            assertFalse(Files.exists(Path.of(file + ".out")), file + ": C wrote nothing");
        }
    }

    private Path buildDriver(CToolchain toolchain) throws IOException, InterruptedException {
        Path driver = workDirectory.resolve("rewrite_files");
        String jdkInclude = Path.of(System.getProperty("java.home"), "include").toString();
        List<String> command = toolchain.compile(driver.toString(), List.of("-std=c11", "-O2", "-Wall", "-Wextra",
                "-Werror", "-I" + jdkInclude, "-I" + jdkInclude + "/linux", "-Isrc/main/c",
                "-I" + NATIVE_HEADERS),
                "src/test/c/rewrite_files.c", "src/main/c/call_site_rewriter.c");
        Process compiler = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(compiler.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(compiler.waitFor(BUILD_AND_RUN_TIMEOUT_SECONDS, TimeUnit.SECONDS), "still running: " + command);
        assertEquals(0, compiler.exitValue(), command + "\n" + output);
        return driver;
    }

    /**
     * Class files as compilers and tools write them, and copies patched to newer versions: marked true, for which C
     * must decide alone.
     */
    private void writeWellFormed(Map<Path, Boolean> corpus) throws IOException {
        List<Integer> newerVersions = GeneratedClasses.NEWER_MAJOR_VERSIONS;
        int jarClasses = 0;
        Path directory = Files.createDirectories(workDirectory.resolve("well-formed"));
        for (Class<?> fromJar : Stream.concat(OTHER_COMPILERS_OUTPUT.stream(), LIBRARY_CLOCK_USERS.stream()).toList()) {
            File jarFile = new File(fromJar.getProtectionDomain().getCodeSource().getLocation().getPath());
            int before = corpus.size();
            try (JarFile jar = new JarFile(jarFile)) {
                for (JarEntry entry : jar.stream().toList()) {
                    if (entry.getName().endsWith(".class") && !entry.getName().endsWith("module-info.class")) {
                        try (InputStream in = jar.getInputStream(entry)) {
                            byte[] classFile = in.readAllBytes();
                            String name = "jar-" + jarClasses;
                            write(corpus, directory, name, classFile, true);
                            // Each newer version in turn, rather than all of them, keeps the run short under emulation.
                            int major = newerVersions.get(jarClasses % newerVersions.size());
                            write(corpus, directory, name + "-" + major,
                                    GeneratedClasses.withMajorVersion(classFile, major), true);
                            jarClasses++;
                        }
                    }
                }
            }
            System.out.println("parity corpus: " + (corpus.size() - before) / 2 + " class files from "
                    + jarFile.getName() + ", each also at a newer version");
        }
        for (String fixture : List.of("ControlFlow", "FixedClock", "LambdasAndInnerClasses", "MethodsAndInitializers",
                "NoClockReads", "TimeReads", "TypeShapes")) {
            writeAtEveryNewerVersion(corpus, directory, fixture, RewritingClassLoader.originalBytes(
                    RewritingClassLoader.FIXTURES + fixture));
        }
        for (int major = Opcodes.V1_1 & 0xFFFF; major <= newerVersions.get(newerVersions.size() - 1); major++) {
            write(corpus, directory, "Version" + major, GeneratedClasses.callingClock("g/Version" + major, major),
                    true);
        }
        writeAtEveryNewerVersion(corpus, directory, "Handle", GeneratedClasses.loadingClockHandle("g/Handle"));
        writeAtEveryNewerVersion(corpus, directory, "Condy", GeneratedClasses.loadingClockDynamicConstant("g/Condy"));
        List<byte[]> ownClockUses = ownClockUses();
        for (int use = 0; use < ownClockUses.size(); use++) {
            writeAtEveryNewerVersion(corpus, directory, "OwnClock" + use, ownClockUses.get(use));
        }
        writeAtEveryNewerVersion(corpus, directory, "InstantSource",
                GeneratedClasses.callingInstantSource("g/InstantSource"));
        for (LibraryClock clock : LibraryClock.ALL) {
            String name = "Library_" + clock.method().owner().replace('/', '_');
            writeAtEveryNewerVersion(corpus, directory, name, GeneratedClasses.loadingClockMethodHandle("g/" + name,
                    clock.method().owner(), clock.method().name()));
        }
        writeAtEveryNewerVersion(corpus, directory, "RepeatedNames",
                GeneratedClasses.callingClockThroughRepeatedNames("g/Repeated"));
        writeAtEveryNewerVersion(corpus, directory, "WithoutClock",
                GeneratedClasses.withoutClock("g/WithoutClock", Opcodes.V17));
        writeAtEveryNewerVersion(corpus, directory, "FullPool", GeneratedClasses.withFullConstantPool("g/FullPool"));
    }

    /** The class file as it is, and a copy at each version newer than the rewriters know. */
    private static void writeAtEveryNewerVersion(Map<Path, Boolean> corpus, Path directory, String name,
            byte[] classFile) throws IOException {
        write(corpus, directory, name, classFile, true);
        for (int major : GeneratedClasses.NEWER_MAJOR_VERSIONS) {
            write(corpus, directory, name + "-" + major, GeneratedClasses.withMajorVersion(classFile, major), true);
        }
    }

    /**
     * Every truncation and thousands of random corruptions of a class that reads the clock, and the fuzzer's regression
     * inputs (agent/src/test/c/fuzz/regressions/): marked false.
     */
    private void writeCorrupted(Map<Path, Boolean> corpus) throws IOException {
        Path directory = Files.createDirectories(workDirectory.resolve("corrupted"));
        try (DirectoryStream<Path> regressions = Files.newDirectoryStream(FUZZ_REGRESSIONS)) {
            for (Path regression : regressions) {
                write(corpus, directory, "regression-" + regression.getFileName(), Files.readAllBytes(regression),
                        false);
            }
        }
        Random random = new Random(CORRUPTION_SEED);
        Map<String, byte[]> bases = new LinkedHashMap<>();
        for (String fixture : List.of("ControlFlow", "TimeReads")) {
            bases.put(fixture, RewritingClassLoader.originalBytes(RewritingClassLoader.FIXTURES + fixture));
        }
        // Their method bodies are read too: a use of the service's own clock is checked to be static.
        List<byte[]> ownClockUses = ownClockUses();
        bases.put("OwnClockAfterSwitches", ownClockUses.get(1));
        bases.put("OwnClockVirtual", ownClockUses.get(2));
        for (Map.Entry<String, byte[]> base : bases.entrySet()) {
            String fixture = base.getKey();
            byte[] original = base.getValue();
            for (int length = 0; length < original.length; length++) {
                write(corpus, directory, fixture + "-truncated-" + length, Arrays.copyOf(original, length), false);
            }
            for (int trial = 0; trial < CORRUPTION_TRIALS; trial++) {
                byte[] corrupted = original.clone();
                for (int change = 1 + random.nextInt(3); change > 0; change--) {
                    corrupted[random.nextInt(corrupted.length)] = (byte) random.nextInt(256);
                }
                write(corpus, directory, fixture + "-corrupted-" + trial, corrupted, false);
            }
        }
    }

    /**
     * Uses of the service's own clock: called, after switches, with invokevirtual, and as a REF_invokeVirtual handle;
     * the first two redirected, the others not.
     */
    private static List<byte[]> ownClockUses() {
        ClockMethod own = RewritingClassLoader.OWN_CLOCK;
        return List.of(GeneratedClasses.callingClockMethod("g/OwnCalled", own.owner(), own.name()),
                GeneratedClasses.callingClockMethodAfterSwitches("g/OwnAfterSwitches", own.owner(), own.name()),
                GeneratedClasses.invokingClockMethodVirtually("g/OwnVirtual", own.owner(), own.name()),
                GeneratedClasses.loadingVirtualClockMethodHandle("g/OwnVirtualHandle", own.owner(), own.name()));
    }

    /** Whether the class file at this position of the corpus is rewritten as one where cachedInstants applies. */
    private static boolean cachedInstants(int position) {
        return position % 2 == 1;
    }

    private static void write(Map<Path, Boolean> corpus, Path directory, String name, byte[] bytes,
            boolean wellFormed) throws IOException {
        Path file = directory.resolve(name + ".class");
        Files.write(file, bytes);
        corpus.put(file, wellFormed);
    }

    private Map<Path, String> run(CToolchain toolchain, Path driver, Iterable<Path> files)
            throws IOException, InterruptedException {
        // The list goes in as a file: written through a pipe, it would fill while the driver's own output filled.
        Path list = workDirectory.resolve("class-files.txt");
        StringBuilder paths = new StringBuilder();
        int position = 0;
        for (Path file : files) {
            paths.append(cachedInstants(position++) ? "1 " : "0 ").append(file).append('\n');
        }
        Files.writeString(list, paths, StandardCharsets.UTF_8);
        List<String> arguments = new ArrayList<>(List.of(TARGET));
        for (ClockMethod clock : CLOCKS.methods()) {
            arguments.add(clock.owner());
            arguments.add(clock.name());
            arguments.add(clock.knownStatic() ? "1" : "0");
        }
        Process process = new ProcessBuilder(toolchain.run(driver.toString(), arguments.toArray(new String[0])))
                .redirectInput(list.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(BUILD_AND_RUN_TIMEOUT_SECONDS, TimeUnit.SECONDS), "driver still running");
        assertEquals(0, process.exitValue(), output);
        Map<Path, String> outcomes = new LinkedHashMap<>();
        for (String line : output.split("\n")) {
            int space = line.indexOf(' ');
            outcomes.put(Path.of(line.substring(space + 1)), line.substring(0, space));
        }
        return outcomes;
    }
}
