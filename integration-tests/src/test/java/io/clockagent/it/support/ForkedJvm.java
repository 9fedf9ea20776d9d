package io.clockagent.it.support;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Launches a JVM of a given JDK as a child process and collects what it wrote. Built and run from one test thread.
 */
public final class ForkedJvm {

    /** Far above the second or so a fork takes; only a hung JVM reaches it. */
    private static final long TIMEOUT_SECONDS = 120;

    /**
     * Variables that make every JVM print "Picked up ..." on stderr and change its options; a developer's shell may
     * set them, and these tests assert stderr line by line.
     */
    private static final List<String> JVM_ENVIRONMENT_VARIABLES =
            List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS", "CLASSPATH");

    private final Jdk jdk;
    private final Path outputDirectory;
    private final List<String> jvmOptions = new ArrayList<>();
    private final Map<String, String> environmentVariables = new LinkedHashMap<>();

    /** @param outputDirectory where the child's stdout and stderr are captured, one file pair per run */
    public ForkedJvm(Jdk jdk, Path outputDirectory) {
        this.jdk = jdk;
        this.outputDirectory = outputDirectory;
    }

    /** Adds {@code -javaagent:JAR} or {@code -javaagent:JAR=OPTIONS}; agents start in the order they are added. */
    public ForkedJvm javaagent(Path jar, String options) {
        jvmOptions.add("-javaagent:" + jar + (options == null ? "" : "=" + options));
        return this;
    }

    /** Adds JVM options as given, such as {@code -Xmx512m}, after those added before. */
    public ForkedJvm option(String... options) {
        jvmOptions.addAll(List.of(options));
        return this;
    }

    /** Sets a variable in the forked JVM's environment, such as {@code LD_PRELOAD}. */
    public ForkedJvm environment(String name, String value) {
        environmentVariables.put(name, value);
        return this;
    }

    public ForkedJvm classPath(Path... entries) {
        jvmOptions.add("-cp");
        jvmOptions.add(joined(entries));
        return this;
    }

    public ForkedJvm modulePath(Path... entries) {
        jvmOptions.add("-p");
        jvmOptions.add(joined(entries));
        return this;
    }

    /** Runs {@code mainClass} from the class path. */
    public ForkResult runMain(String mainClass, String... arguments) {
        return run(List.of(mainClass), arguments);
    }

    /** Runs {@code module/mainClass} from the module path. */
    public ForkResult runModule(String moduleAndMainClass, String... arguments) {
        return run(List.of("-m", moduleAndMainClass), arguments);
    }

    private ForkResult run(List<String> launch, String... arguments) {
        List<String> command = new ArrayList<>();
        command.add(jdk.javaLauncher().toString());
        command.addAll(jvmOptions);
        command.addAll(launch);
        command.addAll(List.of(arguments));
        try {
            Files.createDirectories(outputDirectory);
            Path stdout = Files.createTempFile(outputDirectory, "fork-", ".stdout");
            Path stderr = Files.createTempFile(outputDirectory, "fork-", ".stderr");
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectOutput(stdout.toFile())
                    .redirectError(stderr.toFile());
            Map<String, String> environment = builder.environment();
            JVM_ENVIRONMENT_VARIABLES.forEach(environment::remove);
            environment.putAll(environmentVariables);
            Process process = builder.start();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
                throw new AssertionError("forked JVM still running after " + TIMEOUT_SECONDS + " s, killed\n"
                        + new ForkResult(command, process.exitValue(), lines(stdout), lines(stderr)).describe());
            }
            return new ForkResult(command, process.exitValue(), lines(stdout), lines(stderr));
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for " + command, interrupted);
        }
    }

    private static List<String> lines(Path file) throws IOException {
        return Files.readAllLines(file, StandardCharsets.UTF_8);
    }

    private static String joined(Path... entries) {
        return Stream.of(entries).map(Path::toString).collect(Collectors.joining(File.pathSeparator));
    }
}
