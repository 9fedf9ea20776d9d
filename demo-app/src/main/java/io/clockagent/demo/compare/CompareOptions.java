package io.clockagent.demo.compare;

import io.clockagent.demo.LoadSettings;
import io.clockagent.demo.OptionArgument;
import java.nio.file.Files;
import java.nio.file.Path;

/** The comparison runner's command-line settings, parsed once; immutable. */
final class CompareOptions {

    static final String DEFAULT_AGENT_OPTIONS = "include=io.clockagent.demo";
    static final String USAGE = "options: --agent PATH (clock-agent.jar, required), --rounds N (off,on pairs,"
            + " default 5), " + LoadSettings.USAGE + ", --agent-options TEXT (default " + DEFAULT_AGENT_OPTIONS
            + "), --jdk PATH (JDK home for the forked runs, default this JVM's), --work-dir PATH (default: a new"
            + " temporary directory), --slow-clock PATH (a preload library that makes every clock read of the demo"
            + " JVMs a system call, default none)";

    private final Path agentJar;
    private final int rounds;
    private final LoadSettings load;
    private final String agentOptions;
    private final Path javaHome;
    private final Path workDir;
    private final Path slowClock;

    private CompareOptions(Path agentJar, int rounds, LoadSettings load, String agentOptions, Path javaHome,
            Path workDir, Path slowClock) {
        this.agentJar = agentJar;
        this.rounds = rounds;
        this.load = load;
        this.agentOptions = agentOptions;
        this.javaHome = javaHome;
        this.workDir = workDir;
        this.slowClock = slowClock;
    }

    /**
     * @throws IllegalArgumentException naming the offending argument and the valid forms
     */
    static CompareOptions parse(String... args) {
        Path agentJar = null;
        int rounds = 5;
        LoadSettings load = new LoadSettings();
        String agentOptions = DEFAULT_AGENT_OPTIONS;
        Path javaHome = Path.of(System.getProperty("java.home"));
        Path workDir = null;
        Path slowClock = null;
        for (int i = 0; i < args.length; i += 2) {
            OptionArgument option = OptionArgument.at(args, i, USAGE);
            if (load.take(option)) {
                continue;
            }
            switch (option.key()) {
                case "--agent":
                    agentJar = Path.of(option.value());
                    break;
                case "--rounds":
                    rounds = option.count(1, 100);
                    break;
                case "--agent-options":
                    if (option.value().isBlank() || option.value().contains(" ")) {
                        throw option.badValue("expected the agent's key=value,key=value text without spaces");
                    }
                    agentOptions = option.value();
                    break;
                case "--jdk":
                    javaHome = Path.of(option.value());
                    break;
                case "--work-dir":
                    workDir = Path.of(option.value());
                    break;
                case "--slow-clock":
                    slowClock = Path.of(option.value()).toAbsolutePath();
                    if (!Files.isRegularFile(slowClock)) {
                        throw option.badValue("expected the path of a built libslowclock.so");
                    }
                    break;
                default:
                    throw option.unknown(USAGE);
            }
        }
        if (agentJar == null) {
            throw new IllegalArgumentException("--agent is required; " + USAGE);
        }
        if (!Files.isRegularFile(agentJar)) {
            throw new IllegalArgumentException("no agent jar at '" + agentJar + "'; build it with"
                    + " `mvn -B -q -pl demo-app -am package -DskipTests` from the repository root");
        }
        if (!Files.isExecutable(javaHome.resolve("bin").resolve("java"))) {
            throw new IllegalArgumentException("no bin/java under '" + javaHome + "'; --jdk takes a JDK home");
        }
        return new CompareOptions(agentJar.toAbsolutePath(), rounds, load, agentOptions, javaHome, workDir,
                slowClock);
    }

    Path agentJar() {
        return agentJar;
    }

    int rounds() {
        return rounds;
    }

    /** The load of each forked run, which the runner hands on to the demo. */
    LoadSettings load() {
        return load;
    }

    String agentOptions() {
        return agentOptions;
    }

    Path java() {
        return javaHome.resolve("bin").resolve("java");
    }

    Path javaHome() {
        return javaHome;
    }

    /** The library preloaded into every demo JVM to make its clock reads system calls, or null for none. */
    Path slowClock() {
        return slowClock;
    }

    /** The directory for the runs' output, or null for a new temporary one. */
    Path workDir() {
        return workDir;
    }
}
