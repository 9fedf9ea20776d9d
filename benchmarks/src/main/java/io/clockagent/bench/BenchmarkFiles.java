package io.clockagent.bench;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where the runners find the jars they launch, resolved from the location of the benchmark jar itself
 * ({@code benchmarks/target/benchmarks.jar}), so the commands work from any directory. The agent jar can be pointed
 * elsewhere with {@code -Dclockagent.jar=PATH}. Immutable.
 */
final class BenchmarkFiles {

    static final String AGENT_JAR_PROPERTY = "clockagent.jar";

    private final Path benchmarkJar;
    private final Path targetDirectory;

    private BenchmarkFiles(Path benchmarkJar) {
        this.benchmarkJar = benchmarkJar;
        this.targetDirectory = benchmarkJar.getParent();
    }

    static BenchmarkFiles locate() {
        try {
            Path codeSource = Path.of(BenchmarkFiles.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (!Files.isRegularFile(codeSource)) {
                throw new IllegalStateException("run the benchmarks from benchmarks/target/benchmarks.jar, not from "
                        + codeSource + " (build it with: mvn -B -pl agent,benchmarks package -DskipTests)");
            }
            return new BenchmarkFiles(codeSource.toAbsolutePath());
        } catch (URISyntaxException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    /** The benchmark jar: JMH, the benchmarks and the class-heavy program. */
    Path benchmarkJar() {
        return benchmarkJar;
    }

    /** clock-agent.jar: {@code -Dclockagent.jar}, else the agent module's build output next to this module. */
    Path agentJar() {
        String configured = System.getProperty(AGENT_JAR_PROPERTY);
        Path jar = configured != null
                ? Path.of(configured).toAbsolutePath()
                : targetDirectory.resolve("../../agent/target/clock-agent.jar").toAbsolutePath().normalize();
        return requireFile(jar, "build it with: mvn -B -pl agent package -DskipTests, or pass -D"
                + AGENT_JAR_PROPERTY + "=PATH");
    }

    /** A stack service's jar, as its module in {@code stacks/} packages it, its libraries in {@code lib/} beside it. */
    Path stackJar(String module) {
        return requireFile(targetDirectory.resolve("../../stacks/" + module + "/target/" + module + ".jar")
                .toAbsolutePath().normalize(), "build it with: mvn -B -pl stacks -amd package -DskipTests");
    }

    /**
     * The slow-clock emulation of the integration tests ({@code integration-tests/src/test/c/slowclock.c}), built here
     * with {@code gcc} on first use; for {@code LD_PRELOAD}, where it makes every clock read a system call.
     */
    Path slowClockLibrary() throws IOException, InterruptedException {
        return builtWithGcc("slowclock/libslowclock.so", "integration-tests/src/test/c/slowclock.c");
    }

    /**
     * The wall-clock read counter of the coverage benchmark ({@code benchmarks/src/main/c/wallclock_counter.c}), built
     * here with {@code gcc} on first use; for {@code LD_PRELOAD}, where it counts each thread's reads without slowing
     * them. It needs no {@code -ldl}: glibc 2.34 and later keep {@code dlsym} in libc, and the JVM loads libdl where
     * older ones do not.
     */
    Path wallClockCounterLibrary() throws IOException, InterruptedException {
        return builtWithGcc("wallclock/libwallclockcounter.so", "benchmarks/src/main/c/wallclock_counter.c",
                "-pthread");
    }

    /**
     * A native agent whose class-file hook changes nothing ({@code benchmarks/src/main/c/noop_jvmti_agent.c}), built
     * here with {@code gcc} on first use against the JNI headers of the JDK that runs this runner; for
     * {@code -agentpath}.
     */
    Path noopNativeAgent() throws IOException, InterruptedException {
        Path include = Path.of(System.getProperty("java.home"), "include");
        requireFile(include.resolve("jvmti.h"), "run this runner on a JDK, not a runtime without headers");
        return builtWithGcc("noopjvmti/libnoopjvmti.so", "benchmarks/src/main/c/noop_jvmti_agent.c",
                "-I" + include, "-I" + include.resolve("linux"));
    }

    /**
     * The shared library {@code library} (under this module's target directory), built from a file of the checkout.
     *
     * @param includes options for gcc before the source: include directories, {@code -pthread}
     */
    private Path builtWithGcc(String library, String checkoutSource, String... includes)
            throws IOException, InterruptedException {
        Path built = targetDirectory.resolve(library);
        Path source = requireFile(targetDirectory.resolve("../../" + checkoutSource).toAbsolutePath().normalize(),
                "run from a checkout of the repository");
        // Built again where the source has changed since: a target directory outlives many builds.
        if (!Files.isRegularFile(built)
                || Files.getLastModifiedTime(source).compareTo(Files.getLastModifiedTime(built)) > 0) {
            Files.createDirectories(built.getParent());
            List<String> command = new ArrayList<>(List.of("gcc", "-shared", "-fPIC", "-O2"));
            command.addAll(List.of(includes));
            command.addAll(List.of("-o", built.toString(), source.toString()));
            Process gcc = new ProcessBuilder(command).inheritIO().start();
            if (gcc.waitFor() != 0) {
                throw new IllegalStateException("gcc could not build " + built + " from " + source);
            }
        }
        return built;
    }

    /**
     * clock-agent's library for {@code -agentpath}, written beside a copy of the agent jar under this module's target
     * directory by the jar's own {@code agentpath} command, as a user writes it.
     */
    Path agentPathLibrary() throws IOException, InterruptedException {
        return agentPathLibrary(agentJar(), "agentpath");
    }

    /**
     * The library for {@code -agentpath} of another clock-agent jar, as {@link #agentPathLibrary()} writes it, in the
     * directory {@code directoryName} under this module's target directory: a second build of the agent, for
     * comparing two.
     */
    Path agentPathLibrary(Path agentJar, String directoryName) throws IOException, InterruptedException {
        Path jar = Files.createDirectories(targetDirectory.resolve(directoryName)).resolve("clock-agent.jar");
        Files.copy(requireFile(agentJar, "give the path of a built clock-agent.jar"), jar,
                StandardCopyOption.REPLACE_EXISTING);
        Process command = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar.toString(), "agentpath").redirectErrorStream(true).start();
        String printed = new String(command.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (command.waitFor() != 0) {
            throw new IllegalStateException(printed);
        }
        return jar.resolveSibling("libclockagent.so");
    }

    /** The premain stopwatch built by this module ({@link io.clockagent.bench.stopwatch.PremainStopwatch}). */
    Path premainStopwatchJar() {
        return requireFile(targetDirectory.resolve("benchmarks-premain-stopwatch.jar"), "build this module first");
    }

    /** The do-nothing agent built by this module. */
    Path noopAgentJar() {
        return requireFile(targetDirectory.resolve("benchmarks-noop-agent.jar"), "build this module first");
    }

    /**
     * The class path of the coverage benchmark's Log4j2 service: Log4j2's own jars, as the build copies them, ahead of
     * this jar, so that their multi-release classes serve as they do in a service.
     */
    String log4jServiceClassPath() {
        Path directory = targetDirectory.resolve("log4j-service");
        return classPath(List.of(requireFile(directory.resolve("log4j-core.jar"), "build this module first"),
                requireFile(directory.resolve("log4j-api.jar"), "build this module first"), benchmarkJar));
    }

    /** The jars whose every class the class-heavy program loads, copied here by the build. */
    List<Path> classHeavyJars() {
        Path directory = targetDirectory.resolve("classheavy");
        List<Path> jars = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory)) {
            files.filter(file -> file.toString().endsWith(".jar")).sorted().forEach(jars::add);
        } catch (IOException unreadable) {
            throw new IllegalStateException("cannot list " + directory + "; build this module first", unreadable);
        }
        if (jars.isEmpty()) {
            throw new IllegalStateException("no jars in " + directory + "; build this module first");
        }
        return jars;
    }

    static String classPath(List<Path> entries) {
        StringBuilder joined = new StringBuilder();
        for (Path entry : entries) {
            if (joined.length() > 0) {
                joined.append(File.pathSeparatorChar);
            }
            joined.append(entry);
        }
        return joined.toString();
    }

    private static Path requireFile(Path file, String hint) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException(file + " is missing; " + hint);
        }
        return file;
    }
}
