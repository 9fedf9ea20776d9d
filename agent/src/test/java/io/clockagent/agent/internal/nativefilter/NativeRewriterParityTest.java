package io.clockagent.agent.internal.nativefilter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.agent.internal.classfile.CallSiteRewriter;
import io.clockagent.agent.internal.classfile.ClassFileException;
import io.clockagent.agent.internal.classfile.GeneratedClasses;
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
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The native filter's rewriter (agent/src/main/c/call_site_rewriter.c) against the Java one, class file by class file:
 * where C rewrites, the bytes are the Java rewriter's exactly; where the Java rewriter refuses a class, C leaves it to
 * Java; and on well-formed class files C decides alone everywhere Java rewrites. The corpus: every class of the Byte
 * Buddy, Kotlin, Scala and Groovy runtime jars, the fixtures, generated classes of every version from Java 1.1 to 25,
 * and thousands of truncated and corrupted copies of a class that reads the clock. Built through a small driver,
 * agent/src/test/c/, for each architecture the agent jar carries a library for, the other one run under user-mode
 * emulation.
 */
class NativeRewriterParityTest {

    private static final String TARGET = "java/lang/ClockAgentCachedClock";
    /** Where the build writes class_file_format.h from the Java rewriter's constants; relative to the agent module. */
    private static final String NATIVE_HEADERS = "target/generated-sources/c";
    private static final long BUILD_AND_RUN_TIMEOUT_SECONDS = 120;
    private static final int CORRUPTION_TRIALS = 3_000;
    private static final long CORRUPTION_SEED = 20261122L;
    /** Inputs made to probe the native code, or that once broke it; FuzzRegressionReplayTest replays them too. */
    private static final Path FUZZ_REGRESSIONS = Path.of("src/test/c/fuzz/regressions");
    /**
     * A class from each jar whose every class file joins the corpus: javac's output as Byte Buddy ships it, and what
     * the Kotlin, Scala and Groovy compilers write, which differ from javac in constant pools and inlined code.
     */
    private static final List<Class<?>> OTHER_COMPILERS_OUTPUT = List.of(ByteBuddy.class, kotlin.Unit.class,
            scala.Option.class, groovy.lang.GroovyObject.class);

    @TempDir
    Path workDirectory;

    @ParameterizedTest(name = "built for {0}")
    @ValueSource(strings = {"amd64", "aarch64"})
    void theNativeRewriterAgreesWithTheJavaRewriterOnEveryClassFile(String arch) throws Exception {
        CToolchain toolchain = CToolchain.require(arch);
        Path driver = buildDriver(toolchain);
        Map<Path, Boolean> corpus = new LinkedHashMap<>();
        writeWellFormed(corpus);
        writeCorrupted(corpus);

        Map<Path, String> outcomes = run(toolchain, driver, corpus.keySet());

        CallSiteRewriter java = new CallSiteRewriter(TARGET);
        int nativelyRewritten = 0;
        List<String> disagreements = new ArrayList<>();
        for (Map.Entry<Path, Boolean> file : corpus.entrySet()) {
            String outcome = outcomes.get(file.getKey());
            byte[] original = Files.readAllBytes(file.getKey());
            byte[] expected;
            try {
                expected = java.rewrite(original);
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
        assertTrue(nativelyRewritten >= 26, "the generated clock readers alone are 26; rewritten natively: "
                + nativelyRewritten);
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

    /** Class files as compilers and tools write them: marked true, for which C must decide alone. */
    private void writeWellFormed(Map<Path, Boolean> corpus) throws IOException {
        Path directory = Files.createDirectories(workDirectory.resolve("well-formed"));
        for (Class<?> fromJar : OTHER_COMPILERS_OUTPUT) {
            File jarFile = new File(fromJar.getProtectionDomain().getCodeSource().getLocation().getPath());
            int before = corpus.size();
            try (JarFile jar = new JarFile(jarFile)) {
                for (JarEntry entry : jar.stream().toList()) {
                    if (entry.getName().endsWith(".class") && !entry.getName().endsWith("module-info.class")) {
                        try (InputStream in = jar.getInputStream(entry)) {
                            write(corpus, directory, "jar-" + corpus.size(), in.readAllBytes(), true);
                        }
                    }
                }
            }
            System.out.println("parity corpus: " + (corpus.size() - before) + " class files from " + jarFile.getName());
        }
        for (String fixture : List.of("ControlFlow", "FixedClock", "LambdasAndInnerClasses", "MethodsAndInitializers",
                "NoClockReads", "TypeShapes")) {
            write(corpus, directory, fixture, RewritingClassLoader.originalBytes(RewritingClassLoader.FIXTURES
                    + fixture), true);
        }
        for (int major = Opcodes.V1_1 & 0xFFFF; major <= CallSiteRewriter.MAX_KNOWN_MAJOR_VERSION; major++) {
            write(corpus, directory, "Version" + major, GeneratedClasses.callingClock("g/Version" + major, major),
                    true);
        }
        write(corpus, directory, "Handle", GeneratedClasses.loadingClockHandle("g/Handle"), true);
        write(corpus, directory, "Condy", GeneratedClasses.loadingClockDynamicConstant("g/Condy"), true);
        write(corpus, directory, "RepeatedNames", GeneratedClasses.callingClockThroughRepeatedNames("g/Repeated"),
                true);
        write(corpus, directory, "WithoutClock", GeneratedClasses.withoutClock("g/WithoutClock", Opcodes.V17), true);
        write(corpus, directory, "FullPool", GeneratedClasses.withFullConstantPool("g/FullPool"), true);
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
        byte[] original = RewritingClassLoader.originalBytes(RewritingClassLoader.FIXTURES + "ControlFlow");
        for (int length = 0; length < original.length; length++) {
            write(corpus, directory, "truncated-" + length, Arrays.copyOf(original, length), false);
        }
        Random random = new Random(CORRUPTION_SEED);
        for (int trial = 0; trial < CORRUPTION_TRIALS; trial++) {
            byte[] corrupted = original.clone();
            for (int change = 1 + random.nextInt(3); change > 0; change--) {
                corrupted[random.nextInt(corrupted.length)] = (byte) random.nextInt(256);
            }
            write(corpus, directory, "corrupted-" + trial, corrupted, false);
        }
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
        for (Path file : files) {
            paths.append(file).append('\n');
        }
        Files.writeString(list, paths, StandardCharsets.UTF_8);
        Process process = new ProcessBuilder(toolchain.run(driver.toString(), TARGET)).redirectInput(list.toFile())
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
