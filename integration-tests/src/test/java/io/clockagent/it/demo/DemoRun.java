package io.clockagent.it.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.clockagent.demo.RunResult;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ClassDump;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.InspectorJar;
import io.clockagent.it.support.Jdk;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One run of the shipped demo service ({@code demo-app/target/clock-agent-demo.jar}) under its own load generator,
 * in a forked JVM with the agent off or on and the inspector agent recording every class the JVM defined: what the
 * demo reported on its {@code result} line, and those classes. Immutable.
 */
public final class DemoRun {

    public static final String DEMO_PACKAGE = "io.clockagent.demo";
    /** With the Java rewriter, as the inspector records every run; see {@link InspectorJar#JAVA_REWRITER}. */
    public static final String AGENT_OPTIONS = "include=" + DEMO_PACKAGE + "," + InspectorJar.JAVA_REWRITER;
    /** A few seconds per run: 2,000 warm-up and 5,000 measured requests, and 10,000 burst tasks on JDK 21+. */
    public static final List<String> SMALL_LOAD = List.of("--requests", "5000", "--warmup", "2000", "--burst",
            "10000");
    /** The heap and collector the demo's comparison runner gives its runs, so that the figures are comparable. */
    private static final List<String> JVM_OPTIONS = List.of("-Xms512m", "-Xmx512m", "-XX:+UseG1GC");
    private static final String MAIN_CLASS = "io.clockagent.demo.Demo";

    private final ForkResult fork;
    private final RunResult result;
    private final ClassDump dump;

    private DemoRun(ForkResult fork, RunResult result, ClassDump dump) {
        this.fork = fork;
        this.result = result;
        this.dump = dump;
    }

    /**
     * Runs the demo to its end. Fails the test unless it exits normally having answered every request with a 2xx,
     * which is the precondition for comparing anything it computed.
     *
     * @param environment variables set in the forked JVM, such as {@code LD_PRELOAD}
     * @param outputDirectory a directory of this run's own: its output, its access log and the recorded classes
     */
    public static DemoRun execute(Jdk jdk, boolean agentOn, Map<String, String> environment, Path outputDirectory) {
        Path dumpDirectory = outputDirectory.resolve("classes");
        ForkedJvm jvm = new ForkedJvm(jdk, outputDirectory).option(JVM_OPTIONS.toArray(String[]::new));
        environment.forEach(jvm::environment);
        if (agentOn) {
            jvm.javaagent(BuildOutputs.agentJar(), AGENT_OPTIONS);
        }
        List<String> arguments = new ArrayList<>(SMALL_LOAD);
        // In the run's directory, which the test framework deletes, rather than a new temporary file each run.
        arguments.addAll(List.of("--access-log", outputDirectory.resolve("access.log").toString()));
        ForkResult fork = jvm.javaagent(InspectorJar.path(), dumpDirectory.toString())
                .classPath(BuildOutputs.demoJar())
                .runMain(MAIN_CLASS, arguments.toArray(String[]::new));

        assertEquals(0, fork.exitStatus(), "the demo's exit status says whether it answered every request\n"
                + fork.describe());
        RunResult result = RunResult.parse(fork.stdoutLineStartingWith(RunResult.PREFIX));
        assertEquals("true", result.text("complete"), fork.describe());
        assertEquals("0", result.text("non_2xx"), "every response a 2xx\n" + fork.describe());
        return new DemoRun(fork, result, ClassDump.readFrom(dumpDirectory));
    }

    public ForkResult fork() {
        return fork;
    }

    /** The demo's {@code result} line. */
    public RunResult result() {
        return result;
    }

    /** The classes the JVM defined, as the inspector recorded them. */
    public ClassDump dump() {
        return dump;
    }

    /** The business checksum: a hash over every response's status and body. */
    public String checksum() {
        return result.text("checksum");
    }

    /** The class the demo's own clock reads resolve to, as the demo itself sees it. */
    public String clockClass() {
        return result.text("clock_class");
    }

    /** Whether the demo found the agent's ticker thread and measured its CPU time. */
    public boolean tickerMeasured() {
        return !RunResult.NOT_AVAILABLE.equals(result.text("ticker_cpu_ms"));
    }
}
