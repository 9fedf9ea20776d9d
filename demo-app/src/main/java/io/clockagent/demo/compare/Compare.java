package io.clockagent.demo.compare;

import io.clockagent.demo.RunResult;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs the demo with the agent off and on, alternating off, on, off, on, ... each in a fresh JVM, and prints the
 * side-by-side table of medians. Exits 1, loudly, if any run fails its checks or the business checksums differ.
 * Single-threaded.
 */
public final class Compare {

    private Compare() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        if (Arrays.asList(args).contains("--help")) {
            System.out.println("Compare: " + CompareOptions.USAGE);
            return;
        }
        CompareOptions options;
        try {
            options = CompareOptions.parse(args);
        } catch (IllegalArgumentException bad) {
            System.err.println("compare: " + bad.getMessage());
            System.exit(2);
            return;
        }
        System.exit(run(options) ? 0 : 1);
    }

    /** @return whether every run passed its checks and all business checksums agree */
    static boolean run(CompareOptions options) throws IOException, InterruptedException {
        Path demoJar = demoJar();
        Path workDir = options.workDir() != null ? Files.createDirectories(options.workDir())
                : Files.createTempDirectory("clock-agent-demo-");
        say(String.format(Locale.ROOT, "clock-agent demo on %s: %d rounds of (agent off, agent on), alternating,"
                + " each run in a fresh JVM", options.slowClock() == null ? "this host's clock"
                        : "an EMULATED SLOW CLOCK", options.rounds()));
        say("  JDK:     " + options.javaHome() + " " + String.join(" ", ForkedRun.JVM_OPTIONS));
        say("  machine: " + Runtime.getRuntime().availableProcessors() + " CPUs, clocksource " + clocksource()
                + ", load average " + loadAverage());
        if (options.slowClock() != null) {
            say("  clock:   LD_PRELOAD=" + options.slowClock() + " makes every clock read of the demo JVMs a system"
                    + " call, as on hosts whose clocksource has no vDSO fast path (hpet, acpi_pm, Xen); an"
                    + " emulation on this host's clocksource: a real hpet host is slower still, about 0.6-1 us a read,"
                    + " serialized machine-wide");
        }
        say("  agent:   -javaagent:" + options.agentJar() + "=" + options.agentOptions());
        say(String.format(Locale.ROOT, "  load:    %,d warm-up + %,d measured requests per run over %d keep-alive"
                + " connections; virtual-thread burst of %,d tasks on JDK 21+", options.load().warmup(),
                options.load().requests(), options.load().connections(), options.load().burst()));
        say("  output:  " + workDir);

        List<ForkedRun> off = new ArrayList<>();
        List<ForkedRun> on = new ArrayList<>();
        for (int round = 1; round <= options.rounds(); round++) {
            for (AgentMode mode : AgentMode.values()) {
                ForkedRun run = ForkedRun.execute(options, demoJar, round, mode, workDir);
                (mode == AgentMode.ON ? on : off).add(run);
                if (off.size() + on.size() <= 2) {
                    say("  $ " + String.join(" ", run.command()));
                    run.demoLines().stream().filter(line -> line.contains("requests run on")).findFirst()
                            .ifPresent(line -> say("  " + line));
                    run.agentLines().forEach(line -> say("  " + line));
                }
                say(summarize(run, options.rounds()));
            }
        }

        say("");
        System.out.print(ComparisonTable.render(off, on));
        say(String.format(Locale.ROOT, "requests/s across rounds: %s %s, %s %s", AgentMode.OFF.label(),
                ComparisonTable.describeRange(ComparisonTable.range(results(off), r -> r.number("rps")), "%,.0f"),
                AgentMode.ON.label(),
                ComparisonTable.describeRange(ComparisonTable.range(results(on), r -> r.number("rps")), "%,.0f")));
        say(String.format(Locale.ROOT, "process CPU per request (us) across rounds: %s %s, %s %s",
                AgentMode.OFF.label(), ComparisonTable.describeRange(ComparisonTable.range(results(off),
                        r -> r.number("cpu_us_per_request")), "%.1f"),
                AgentMode.ON.label(), ComparisonTable.describeRange(ComparisonTable.range(results(on),
                        r -> r.number("cpu_us_per_request")), "%.1f")));
        say(ComparisonTable.clockShareOfRequest(results(off), results(on)));
        say(ComparisonTable.agentVerdict(results(on)));
        say(SavedCpuCheck.describe(ForkedRun.roundResults(off), ForkedRun.roundResults(on)) + "; "
                + SavedCpuCheck.judged(ForkedRun.roundResults(on)));
        say("load average at the end: " + loadAverage());
        say("clock reads are counted per request from the code's known reads (4 + 2 per item + 1 per cache miss),"
                + " never on the read path.");
        return verdict(off, on);
    }

    private static boolean verdict(List<ForkedRun> off, List<ForkedRun> on) {
        List<String> failures = new ArrayList<>();
        Map<String, List<String>> runsByChecksum = new LinkedHashMap<>();
        List<ForkedRun> all = new ArrayList<>(off);
        all.addAll(on);
        for (ForkedRun run : all) {
            String name = "round " + run.round() + " " + run.mode().label();
            run.problems().forEach(problem -> failures.add(name + ": " + problem));
            if (!run.otherErrorLines().isEmpty()) {
                say("note: " + name + " wrote to stderr: " + run.otherErrorLines());
            }
            if (run.result() != null) {
                runsByChecksum.computeIfAbsent(run.result().text("checksum"), checksum -> new ArrayList<>()).add(name);
            }
        }
        for (String problem : SavedCpuCheck.problems(ForkedRun.roundResults(off), ForkedRun.roundResults(on))) {
            say("PROBLEM: " + problem);
            failures.add(problem);
        }
        if (runsByChecksum.size() > 1) {
            failures.add("the business checksums differ between runs, so the agent changed what the service"
                    + " computed: " + runsByChecksum);
        }
        if (failures.isEmpty()) {
            say("OK: every run completed all requests and all " + all.size() + " runs agree on the business checksum "
                    + runsByChecksum.keySet().iterator().next());
            return true;
        }
        System.out.println();
        System.out.println("FAIL: " + failures.size() + " problem(s):");
        failures.forEach(failure -> System.out.println("FAIL:   " + failure));
        return false;
    }

    private static String summarize(ForkedRun run, int rounds) {
        String head = String.format(Locale.ROOT, "round %d/%d %-9s ", run.round(), rounds, run.mode().label());
        RunResult result = run.result();
        if (result == null) {
            return head + "no result: " + run.problems();
        }
        String line = head + String.format(Locale.ROOT, "%,8.0f req/s  p50 %.3f ms  p99 %.3f ms  %,10.0f reads/s"
                        + "  CPU %.1f us/req  ticker %s  checksum %s",
                result.number("rps"), result.number("p50_us") / 1e3, result.number("p99_us") / 1e3,
                result.number("clock_reads_per_s"), result.number("cpu_us_per_request"),
                Double.isFinite(result.number("ticker_cpu_ms"))
                        ? String.format(Locale.ROOT, "%.2f%%", ComparisonTable.tickerCpuPercent(result))
                        : RunResult.NOT_AVAILABLE,
                result.text("checksum"));
        if (Double.isFinite(result.number("burst_tasks"))) {
            line += String.format(Locale.ROOT, "  burst %.0f ms, lag max %s ms", result.number("burst_ms"),
                    result.text("burst_lag_max_ms"));
        }
        return run.problems().isEmpty() ? line : line + "  PROBLEM: " + run.problems();
    }

    private static List<RunResult> results(List<ForkedRun> runs) {
        List<RunResult> results = new ArrayList<>();
        runs.stream().filter(run -> run.result() != null).forEach(run -> results.add(run.result()));
        return results;
    }

    /** The jar this class was loaded from, which also holds the demo. */
    private static Path demoJar() throws IOException {
        try {
            Path location = Path.of(Compare.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (!Files.isRegularFile(location)) {
                throw new IOException("Compare must run from the demo jar (it forks `java -jar` on it), not from "
                        + location);
            }
            return location;
        } catch (URISyntaxException unexpected) {
            throw new IOException(unexpected);
        }
    }

    private static String clocksource() {
        Path current = Path.of("/sys/devices/system/clocksource/clocksource0/current_clocksource");
        try {
            return new String(Files.readAllBytes(current), StandardCharsets.US_ASCII).trim();
        } catch (IOException | RuntimeException unreadable) {
            return "unknown";
        }
    }

    private static String loadAverage() {
        try {
            String[] fields = new String(Files.readAllBytes(Path.of("/proc/loadavg")), StandardCharsets.US_ASCII)
                    .trim().split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException | RuntimeException unreadable) {
            return "unknown";
        }
    }

    private static void say(String line) {
        System.out.println(line);
    }
}
