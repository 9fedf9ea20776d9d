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
 * Launches a JVM of a given JDK as a child process: run to its end, with what it wrote collected, or kept running
 * while the test talks to it ({@link LiveJvm}). Built and run from one test thread.
 */
public final class ForkedJvm {

    /** Far above the few seconds a run takes; only a hung JVM reaches it. */
    private static final long DEFAULT_TIMEOUT_SECONDS = 120;

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
    private Path workingDirectory;
    private String user;
    private List<String> emulator = List.of();
    private long timeoutSeconds = DEFAULT_TIMEOUT_SECONDS;

    /** @param outputDirectory where the child's stdout and stderr are captured, one file pair per run */
    public ForkedJvm(Jdk jdk, Path outputDirectory) {
        this.jdk = jdk;
        this.outputDirectory = outputDirectory;
    }

    /** Adds {@code -javaagent:JAR} or {@code -javaagent:JAR=OPTIONS}; agents start in the order they are added. */
    public ForkedJvm javaagent(Path jar, String options) {
        return option("-javaagent:" + jar + (options == null ? "" : "=" + options));
    }

    /** Adds {@code -agentpath:LIBRARY} or {@code -agentpath:LIBRARY=OPTIONS}. */
    public ForkedJvm agentpath(Path library, String options) {
        return option("-agentpath:" + library + (options == null ? "" : "=" + options));
    }

    /** Adds JVM options as given, such as {@code -Xmx512m}, after those added before. */
    public ForkedJvm option(String... options) {
        jvmOptions.addAll(List.of(options));
        return this;
    }

    /**
     * Sets a variable in the forked JVM's environment, such as {@code LD_PRELOAD}, after the ones that change every
     * JVM's options are cleared: so {@code JAVA_TOOL_OPTIONS} can be set on purpose.
     */
    public ForkedJvm environment(String name, String value) {
        environmentVariables.put(name, value);
        return this;
    }

    public ForkedJvm classPath(Path... entries) {
        return option("-cp", joined(entries));
    }

    public ForkedJvm modulePath(Path... entries) {
        return option("-p", joined(entries));
    }

    /** Where the JVM runs; by default the test's own working directory. */
    public ForkedJvm workingDirectory(Path directory) {
        this.workingDirectory = directory;
        return this;
    }

    /**
     * How long the JVM may run before it is killed and the test fails: a liveness bound for commands whose
     * documented duration is far below it, and room for runs that take longer than the default allows.
     */
    public ForkedJvm timeoutSeconds(long seconds) {
        this.timeoutSeconds = seconds;
        return this;
    }

    /** Runs the JVM as another user, through {@code runuser}; see {@link OtherUser}. */
    public ForkedJvm asUser(String userName) {
        this.user = userName;
        return this;
    }

    /** Runs the JVM under a user-mode emulator: its launcher and options, see {@link EmulatedJdk}. */
    public ForkedJvm emulatedBy(List<String> emulatorCommand) {
        this.emulator = List.copyOf(emulatorCommand);
        return this;
    }

    /** Runs {@code mainClass} from the class path to its end. */
    public ForkResult runMain(String mainClass, String... arguments) {
        return runToEnd(command(List.of(mainClass), arguments));
    }

    /** Runs {@code module/mainClass} from the module path to its end. */
    public ForkResult runModule(String moduleAndMainClass, String... arguments) {
        return runToEnd(command(List.of("-m", moduleAndMainClass), arguments));
    }

    /** Runs {@code java -jar JAR ARGUMENTS} to its end. */
    public ForkResult runJar(Path jar, String... arguments) {
        return runToEnd(command(List.of("-jar", jar.toString()), arguments));
    }

    /**
     * Runs one of the JDK's tools ({@code bin/NAME}, such as {@code jcmd}) to its end, as the test's user, in the
     * environment a forked JVM gets; the JVM options, the emulator and the user set here are for JVMs alone.
     */
    public ForkResult runTool(String name, String... arguments) {
        List<String> command = new ArrayList<>();
        command.add(jdk.home().resolve("bin").resolve(name).toString());
        command.addAll(List.of(arguments));
        return runToEnd(command);
    }

    /** Starts {@code mainClass} from the class path and hands it over while it runs. */
    public LiveJvm startMain(String mainClass, String... arguments) {
        return start(command(List.of(mainClass), arguments));
    }

    /** Starts {@code java -jar JAR ARGUMENTS} and hands it over while it runs. */
    public LiveJvm startJar(Path jar, String... arguments) {
        return start(command(List.of("-jar", jar.toString()), arguments));
    }

    private LiveJvm start(List<String> command) {
        if (user != null) {
            throw new IllegalStateException("a live JVM runs as the test's user: as another user its pid would be"
                    + " that of runuser");
        }
        Path stderr = newOutputFile(".stderr");
        try {
            return new LiveJvm(command, processBuilder(command).redirectError(stderr.toFile()).start(), stderr,
                    timeoutSeconds);
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        }
    }

    private List<String> command(List<String> launch, String... arguments) {
        List<String> command = new ArrayList<>();
        if (user != null) {
            command.addAll(List.of("runuser", "-u", user, "--"));
        }
        command.addAll(emulator);
        command.add(jdk.javaLauncher().toString());
        command.addAll(jvmOptions);
        command.addAll(launch);
        command.addAll(List.of(arguments));
        return command;
    }

    private ForkResult runToEnd(List<String> command) {
        Path stdout = newOutputFile(".stdout");
        Path stderr = newOutputFile(".stderr");
        try {
            Process process = processBuilder(command)
                    .redirectOutput(stdout.toFile())
                    .redirectError(stderr.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
                throw new AssertionError("forked JVM still running after " + timeoutSeconds + " s, killed\n"
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

    private ProcessBuilder processBuilder(List<String> command) {
        ProcessBuilder builder = new ProcessBuilder(command);
        JVM_ENVIRONMENT_VARIABLES.forEach(builder.environment()::remove);
        builder.environment().putAll(environmentVariables);
        if (workingDirectory != null) {
            builder.directory(workingDirectory.toFile());
        }
        return builder;
    }

    private Path newOutputFile(String suffix) {
        try {
            Files.createDirectories(outputDirectory);
            return Files.createTempFile(outputDirectory, "fork-", suffix);
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        }
    }

    static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
    }

    private static String joined(Path... entries) {
        return Stream.of(entries).map(Path::toString).collect(Collectors.joining(File.pathSeparator));
    }
}
