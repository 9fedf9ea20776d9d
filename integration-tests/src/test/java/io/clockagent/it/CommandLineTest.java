package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.NativeLibraries;
import io.clockagent.it.support.OnEachJdk;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code java -jar clock-agent.jar COMMAND}: the version, the help, a refused command, and {@code doctor}, whose
 * report has every finding the README promises. The attach and detach commands have tests of their own.
 */
class CommandLineTest {

    private static final int OK = 0;
    private static final int USAGE = 2;
    /** The README says the doctor takes about 4 s; this bound only catches a doctor that hangs. */
    private static final long DOCTOR_PATIENCE_SECONDS = 30;

    private static final String NUMBER = "\\d[\\d,]*(\\.\\d+)?";
    private static final List<Pattern> DOCTOR_FINDINGS = List.of(
            Pattern.compile("clocksource: +\\S.*"),
            Pattern.compile("currentTimeMillis\\(\\): +" + NUMBER + " ns per call \\(1 thread\\)"),
            Pattern.compile("currentTimeMillis\\(\\): +" + NUMBER + " ns per call \\(each of 2 threads at once.*\\)"),
            Pattern.compile("nanoTime\\(\\): +" + NUMBER + " ns per call \\(1 thread\\)"),
            Pattern.compile("cached read: +" + NUMBER + " ns per call \\(1 thread, tick=1ms\\)"),
            Pattern.compile("ticker cost: +" + NUMBER + " ms CPU per second \\(" + NUMBER + " % of a core\\), .+"),
            Pattern.compile("break-even: +" + NUMBER + " reads per second \\(each saves " + NUMBER + " ns; the ticker"
                    + " spends " + NUMBER + " ms per second\\)"),
            Pattern.compile("cache=auto \\(default\\): +caches from about " + NUMBER + " reads per second \\(1\\.5x"
                    + " break-even\\), and reads the direct clock again below break-even"),
            Pattern.compile("verdict: (PAYS|PAYS ONLY WHEN BUSY)\\. .+"));

    private static final int TICKER_LINE = 5;
    /** Clocksources whose reads the vDSO answers in user space. */
    private static final Set<String> VDSO_CLOCKSOURCES = Set.of("tsc", "arch_sys_counter");

    /**
     * Its claims are held to the tests: the JDKs it says it was tested on are those every forked-JVM test runs on,
     * and it reads class files up to the newest of their versions, beyond that only those whose tags it knows.
     */
    @OnEachJdk
    void versionPrintsTheNameTheVersionWhatItWasTestedOnAndTheNativePlatformsAndSucceeds(int featureVersion,
            @TempDir Path runDirectory) {
        ForkResult result = cli(featureVersion, runDirectory).runJar(BuildOutputs.agentJar(), "--version");

        assertEquals(OK, result.exitStatus(), result.describe());
        List<String> platforms = NativeLibraries.carried();
        String nativeLine = "native class filter: " + (platforms.isEmpty()
                ? "none in this jar (its build found no C compiler); the agent filters in Java"
                : String.join(", ", platforms) + "; the agent filters in Java elsewhere");
        String testedOn = "tested on: JDK "
                + Jdks.TESTED.stream().map(String::valueOf).collect(Collectors.joining(", "));
        String classFiles = "class files read: versions 45 (Java 1.1) to " + Jdks.NEWEST_CLASS_FILE_MAJOR_VERSION
                + " (Java " + Collections.max(Jdks.TESTED) + "), and newer ones whose constant-pool tags are all known"
                + " to version " + Jdks.NEWEST_CLASS_FILE_MAJOR_VERSION;
        assertEquals(List.of("clock-agent " + BuildOutputs.agentVersion(), testedOn, classFiles, nativeLine),
                result.stdout(), result.describe());
        assertEquals(List.of(), result.stderr(), result.describe());
    }

    @OnEachJdk
    void helpListsEveryCommandAndSucceeds(int featureVersion, @TempDir Path runDirectory) {
        ForkResult result = cli(featureVersion, runDirectory).runJar(BuildOutputs.agentJar(), "help");

        assertEquals(OK, result.exitStatus(), result.describe());
        String help = String.join("\n", result.stdout());
        for (String command : List.of("attach PID", "detach PID", "doctor", "--version", "help")) {
            assertTrue(help.contains("  " + command), "help names " + command + "\n" + result.describe());
        }
        assertEquals(List.of(), result.stderr(), result.describe());
    }

    @OnEachJdk
    void anUnknownCommandIsRefusedWithOneLineAndStatusTwo(int featureVersion, @TempDir Path runDirectory) {
        ForkResult result = cli(featureVersion, runDirectory).runJar(BuildOutputs.agentJar(), "frobnicate");

        assertEquals(USAGE, result.exitStatus(), result.describe());
        assertEquals(List.of(), result.stdout(), result.describe());
        assertEquals(1, result.stderr().size(), "exactly one line\n" + result.describe());
        String line = result.stderr().get(0);
        assertTrue(line.startsWith("clock-agent: ") && line.contains("'frobnicate'")
                && line.contains("valid commands: attach, detach, doctor, agentpath, --version, help"), line);
    }

    @OnEachJdk
    void doctorReportsTheClocksourceEachCostTheBreakEvenRateAndAVerdict(int featureVersion,
            @TempDir Path runDirectory) {
        ForkResult result = cli(featureVersion, runDirectory)
                .timeoutSeconds(DOCTOR_PATIENCE_SECONDS)
                .runJar(BuildOutputs.agentJar(), "doctor");

        assertEquals(OK, result.exitStatus(), result.describe());
        assertEquals(List.of(), result.stderr(), result.describe());
        assertTrue(result.stdout().get(0).startsWith("clock-agent doctor: Java "), result.describe());
        List<String> findings = result.stdout().subList(1, result.stdout().size());
        assertEquals(DOCTOR_FINDINGS.size(), findings.size(), "one line per finding\n" + result.describe());
        for (int i = 0; i < findings.size(); i++) {
            assertTrue(DOCTOR_FINDINGS.get(i).matcher(findings.get(i)).matches(), "line " + (i + 2) + " should match "
                    + DOCTOR_FINDINGS.get(i) + "\n" + result.describe());
        }
        // A slow clock's side is held in SlowClockTest; here, on a vDSO clocksource, the ticker must see a fast one.
        String clocksource = findings.get(0).split(" +")[1];
        if (VDSO_CLOCKSOURCES.contains(clocksource)) {
            assertTrue(findings.get(TICKER_LINE).contains(", three wall-clock reads a tick (reads are fast), "),
                    "on " + clocksource + "\n" + result.describe());
        }
    }

    private static ForkedJvm cli(int featureVersion, Path runDirectory) {
        return new ForkedJvm(Jdks.require(featureVersion), runDirectory);
    }
}
