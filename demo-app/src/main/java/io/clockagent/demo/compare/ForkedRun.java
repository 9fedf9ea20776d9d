package io.clockagent.demo.compare;

import io.clockagent.demo.Demo;
import io.clockagent.demo.RunResult;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One demo run in a fresh JVM, with the agent off or on, and everything the runner checks about it; immutable once
 * {@link #execute} returns.
 */
final class ForkedRun {

    static final String AGENT_LINE_PREFIX = "clock-agent: ";
    static final String DEMO_LINE_PREFIX = "demo: ";
    static final String CACHED_CLOCK_CLASS = "java.lang.ClockAgentCachedClock";
    /** The same heap and collector for every run, whatever the JDK would pick for this machine. */
    static final List<String> JVM_OPTIONS = List.of("-Xms512m", "-Xmx512m", "-XX:+UseG1GC");

    private final int round;
    private final AgentMode mode;
    private final List<String> command;
    private final int exitCode;
    private final RunResult result;
    private final List<String> demoLines;
    private final List<String> agentLines;
    private final List<String> otherErrorLines;
    private final long accessLogLines;
    private final Path stdout;
    private final Path stderr;
    private final List<String> problems;

    private ForkedRun(int round, AgentMode mode, List<String> command, int exitCode, RunResult result,
            List<String> demoLines, List<String> agentLines, List<String> otherErrorLines, long accessLogLines,
            Path stdout, Path stderr) {
        this.round = round;
        this.mode = mode;
        this.command = List.copyOf(command);
        this.exitCode = exitCode;
        this.result = result;
        this.demoLines = List.copyOf(demoLines);
        this.agentLines = List.copyOf(agentLines);
        this.otherErrorLines = List.copyOf(otherErrorLines);
        this.accessLogLines = accessLogLines;
        this.stdout = stdout;
        this.stderr = stderr;
        this.problems = Collections.unmodifiableList(findProblems());
    }

    static ForkedRun execute(CompareOptions options, Path demoJar, int round, AgentMode mode, Path workDir)
            throws IOException, InterruptedException {
        String name = String.format(java.util.Locale.ROOT, "round-%02d-%s", round, mode.fileTag());
        Path stdout = workDir.resolve(name + ".out");
        Path stderr = workDir.resolve(name + ".err");
        Path accessLog = workDir.resolve(name + "-access.log");
        Files.deleteIfExists(accessLog);
        List<String> command = new ArrayList<>();
        command.add(options.java().toString());
        command.addAll(JVM_OPTIONS);
        if (mode == AgentMode.ON) {
            command.add("-javaagent:" + options.agentJar() + "=" + options.agentOptions());
        }
        command.addAll(List.of("-jar", demoJar.toString()));
        command.addAll(options.load().asArguments());
        command.addAll(List.of("--access-log", accessLog.toString()));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile());
        if (options.slowClock() != null) {
            // The demo JVM's alone: the runner's own clock reads stay fast.
            builder.environment().put("LD_PRELOAD", options.slowClock().toString());
        }
        Process process = builder.start();
        int exitCode;
        // The demo bounds itself by --max-seconds for the load and again for the burst; this is the backstop.
        if (process.waitFor(2L * options.load().maxSeconds() + 60, TimeUnit.SECONDS)) {
            exitCode = process.exitValue();
        } else {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
            exitCode = -1;
        }
        RunResult result = null;
        List<String> demoLines = new ArrayList<>();
        for (String line : Files.readAllLines(stdout, StandardCharsets.UTF_8)) {
            if (line.startsWith(RunResult.PREFIX)) {
                result = RunResult.parse(line);
            } else if (line.startsWith(DEMO_LINE_PREFIX)) {
                demoLines.add(line);
            }
        }
        List<String> agentLines = new ArrayList<>();
        List<String> otherErrorLines = new ArrayList<>();
        for (String line : Files.readAllLines(stderr, StandardCharsets.UTF_8)) {
            (line.startsWith(AGENT_LINE_PREFIX) ? agentLines : otherErrorLines).add(line);
        }
        long accessLogLines = countLines(accessLog);
        // Tens of megabytes per run; counting its lines was the point.
        Files.deleteIfExists(accessLog);
        return new ForkedRun(round, mode, command, exitCode, result, demoLines, agentLines, otherErrorLines,
                accessLogLines, stdout, stderr);
    }

    private static long countLines(Path file) throws IOException {
        if (!Files.exists(file)) {
            return -1;
        }
        long lines = 0;
        byte[] buffer = new byte[65_536];
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file))) {
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                for (int i = 0; i < read; i++) {
                    if (buffer[i] == '\n') {
                        lines++;
                    }
                }
            }
        }
        return lines;
    }

    private List<String> findProblems() {
        List<String> found = new ArrayList<>();
        String where = " (see " + stdout + " and " + stderr + ")";
        if (exitCode != 0) {
            found.add(exitCode < 0 ? "did not finish in time and was killed" + where : "exited with " + exitCode + where);
        }
        if (result == null) {
            found.add("printed no result line" + where);
            return found;
        }
        if (!"true".equals(result.text("complete"))) {
            found.add("did not complete every request: " + result.text("failure"));
        }
        if (result.number("non_2xx") != 0) {
            found.add(result.text("non_2xx") + " responses were not 2xx (throttled " + result.text("throttled")
                    + ", deadlines missed " + result.text("deadline_missed") + ", bad requests "
                    + result.text("bad_requests") + ")");
        }
        if (accessLogLines != (long) result.number("requests")) {
            found.add("the access log has " + accessLogLines + " lines for " + result.text("requests") + " requests");
        }
        if (Double.isFinite(result.number("burst_tasks"))
                && result.number("burst_done") != result.number("burst_tasks")) {
            found.add("the virtual-thread burst finished " + result.text("burst_done") + " of "
                    + result.text("burst_tasks") + " tasks in time");
        }
        if (mode == AgentMode.ON) {
            if ("false".equals(result.text("burst_ticker_alive"))) {
                found.add("the clock-agent-ticker thread was gone after the virtual-thread burst");
            }
            if (agentLines.size() != 1) {
                found.add("expected exactly one '" + AGENT_LINE_PREFIX + "' line on stderr, got " + agentLines.size()
                        + ": " + agentLines);
            }
            if (!"on".equals(result.text("agent"))) {
                found.add("the agent did not define its cached clock: " + agentLines);
            }
            if (!CACHED_CLOCK_CLASS.equals(result.text("clock_class"))) {
                found.add("the demo's clock reads were not rewritten: they go to " + result.text("clock_class")
                        + "; do the agent options cover io.clockagent.demo?");
            }
            if (!"registered".equals(result.text("agent_mbean"))) {
                found.add("the agent's MBean was not registered within " + Demo.AGENT_MBEAN_TIMEOUT_SECONDS
                        + " s of the service starting JMX" + where);
            }
        } else if (!agentLines.isEmpty() || !"off".equals(result.text("agent"))
                || !"java.lang.System".equals(result.text("clock_class"))) {
            found.add("the agent was active in a run meant to be without it: " + agentLines);
        }
        return found;
    }

    int round() {
        return round;
    }

    AgentMode mode() {
        return mode;
    }

    List<String> command() {
        return command;
    }

    /** Null when the run printed no result line; then {@link #problems()} says so. */
    RunResult result() {
        return result;
    }

    /** The runs' results round by round, null where a run printed none, so that rounds stay paired by index. */
    static List<RunResult> roundResults(List<ForkedRun> runs) {
        List<RunResult> results = new ArrayList<>();
        runs.forEach(run -> results.add(run.result()));
        return results;
    }

    List<String> demoLines() {
        return demoLines;
    }

    List<String> agentLines() {
        return agentLines;
    }

    List<String> otherErrorLines() {
        return otherErrorLines;
    }

    /** What is wrong with this run; empty when it can be compared. */
    List<String> problems() {
        return problems;
    }
}
