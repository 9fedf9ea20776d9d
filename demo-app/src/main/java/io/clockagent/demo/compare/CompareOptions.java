package io.clockagent.demo.compare;

import io.clockagent.demo.OptionArgument;
import java.nio.file.Files;
import java.nio.file.Path;

/** The comparison runner's command-line settings, parsed once; immutable. */
final class CompareOptions {

    static final String DEFAULT_AGENT_OPTIONS = "include=io.clockagent.demo";
    static final String USAGE = "options: --agent PATH (clock-agent.jar, required), --rounds N (off,on pairs,"
            + " default 5), --requests N (measured per run, default 60000), --warmup N (default 20000),"
            + " --connections N (default 8), --burst N (virtual-thread tasks per run on JDK 21+, 0 for none,"
            + " default 100000), --agent-options TEXT (default " + DEFAULT_AGENT_OPTIONS + "), --jdk PATH (JDK home"
            + " for the forked runs, default this JVM's), --work-dir PATH (default: a new temporary directory),"
            + " --max-seconds N (per run, default 60)";

    private final Path agentJar;
    private final int rounds;
    private final int requests;
    private final int warmup;
    private final int connections;
    private final int burst;
    private final String agentOptions;
    private final Path javaHome;
    private final Path workDir;
    private final int maxSeconds;

    private CompareOptions(Path agentJar, int rounds, int requests, int warmup, int connections, int burst,
            String agentOptions, Path javaHome, Path workDir, int maxSeconds) {
        this.agentJar = agentJar;
        this.rounds = rounds;
        this.requests = requests;
        this.warmup = warmup;
        this.connections = connections;
        this.burst = burst;
        this.agentOptions = agentOptions;
        this.javaHome = javaHome;
        this.workDir = workDir;
        this.maxSeconds = maxSeconds;
    }

    /**
     * @throws IllegalArgumentException naming the offending argument and the valid forms
     */
    static CompareOptions parse(String... args) {
        Path agentJar = null;
        int rounds = 5;
        int requests = 60_000;
        int warmup = 20_000;
        int connections = 8;
        int burst = 100_000;
        String agentOptions = DEFAULT_AGENT_OPTIONS;
        Path javaHome = Path.of(System.getProperty("java.home"));
        Path workDir = null;
        int maxSeconds = 60;
        for (int i = 0; i < args.length; i += 2) {
            OptionArgument option = OptionArgument.at(args, i, USAGE);
            switch (option.key()) {
                case "--agent":
                    agentJar = Path.of(option.value());
                    break;
                case "--rounds":
                    rounds = option.count(1, 100);
                    break;
                case "--requests":
                    requests = option.count(1, 10_000_000);
                    break;
                case "--warmup":
                    warmup = option.count(0, 10_000_000);
                    break;
                case "--connections":
                    connections = option.count(1, 1_000);
                    break;
                case "--burst":
                    burst = option.count(0, 1_000_000);
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
                case "--max-seconds":
                    maxSeconds = option.count(1, 3_600);
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
        return new CompareOptions(agentJar.toAbsolutePath(), rounds, requests, warmup, connections, burst,
                agentOptions, javaHome, workDir, maxSeconds);
    }

    Path agentJar() {
        return agentJar;
    }

    int rounds() {
        return rounds;
    }

    int requests() {
        return requests;
    }

    int warmup() {
        return warmup;
    }

    int connections() {
        return connections;
    }

    int burst() {
        return burst;
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

    /** The directory for the runs' output, or null for a new temporary one. */
    Path workDir() {
        return workDir;
    }

    int maxSeconds() {
        return maxSeconds;
    }
}
