package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.tamper.TamperingMain;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.DistinctMillis;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdk;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.OnEachJdk;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the agent lets application code do to it, and what it leaves behind on the host. The application can read the
 * cached clock and nothing more: reflection cannot open the clock's state, there is no public method but the read,
 * and the agent's internals, named from the application's own loader, are an inert copy. The agent opens no socket
 * and writes no file; the JVM runs with an empty working directory, an empty temporary directory and
 * {@code -XX:-UsePerfData}, so that anything written would show.
 *
 * <p>One fork per JDK with the agent ({@code tick=1s}, so that the probe can tell a cached clock from a direct one, and
 * {@code cache=always}, as the probe reads too little for {@code cache=auto} to cache),
 * and one without it, whose sockets are the baseline. Before JDK 16 the JVM's default {@code --illegal-access=permit}
 * opens {@code java.lang}, like every package Java 8 had, to class-path code: there the forks run with
 * {@code --illegal-access=deny}, as the README asks of a JDK 11 service that wants the clock closed, and one more
 * fork shows what the default allows.
 */
class ApplicationCannotTouchTheClockTest {

    private static final String OPTIONS = "include=" + TamperingMain.class.getPackageName() + ",tick=1s,cache=always";
    /** The first release whose JVM denies illegal reflective access by default. */
    private static final int DENIES_ILLEGAL_ACCESS_FROM = 16;

    @TempDir
    static Path workDirectory;
    private static final Map<Integer, Run> RUNS = new HashMap<>();

    @OnEachJdk
    void reflectionCannotOpenAnyFieldOrConstructorOfTheCachedClock(int featureVersion) {
        Run run = runOn(featureVersion);
        Map<String, String> members = run.withAgent.labelled("member");

        assertTrue(members.keySet().containsAll(List.of("PADDED_CELLS", "demanded", "ticker", "<init>")),
                run.withAgent.describe());
        members.forEach((member, outcome) -> assertEquals("InaccessibleObjectException", outcome,
                member + "\n" + run.withAgent.describe()));
    }

    @OnEachJdk
    void noPrivateLookupIntoTheCachedClockIsGranted(int featureVersion) {
        Run run = runOn(featureVersion);

        assertEquals("private-lookup IllegalAccessException", run.withAgent.stdoutLineStartingWith("private-lookup "));
    }

    @OnEachJdk
    void theCachedClocksPublicMethodsAreReadsAndAJavaTimeClocksOwn(int featureVersion) {
        Run run = runOn(featureVersion);

        // The reads that rewritten sites call, and the methods of the java.time.Clock it also is; nothing that writes.
        // Before Java 17 the two in place of InstantSource.system() return a Clock, so that listing them resolves.
        assertEquals("public-methods [cachedInstantNow, cachedInstantsInstantSourceSystem, cachedInstantsSystem,"
                + " cachedInstantsSystemDefaultZone, cachedInstantsSystemUTC, cachedLocalDateNow,"
                + " cachedLocalDateTimeNow, cachedLocalTimeNow, cachedOffsetDateTimeNow, cachedOffsetTimeNow,"
                + " cachedZonedDateTimeNow, currentTimeMillis, equals, getZone, hashCode, instant,"
                + " instantSourceSystem, millis, system, systemDefaultZone, systemUTC, toString, withZone]",
                run.withAgent.stdoutLineStartingWith("public-methods "));
    }

    @OnEachJdk
    void theInternalsNamedFromTheApplicationLoaderAreAnInertCopy(int featureVersion) {
        Run run = runOn(featureVersion);

        assertEquals("internals-copy loader=app", run.withAgent.stdoutLineStartingWith("internals-copy "),
                "a copy of its own, which refused a forged Instrumentation:\n" + run.withAgent.describe());
        assertEquals("internals IllegalAccessException", run.withAgent.stdoutLineStartingWith("internals "),
                "without a private lookup on the clock, the copy cannot build a writer\n" + run.withAgent.describe());
        DistinctMillis.parse(run.withAgent.stdoutLineStartingWith("after ")).assertCached("after all the attempts,"
                + " the application's call site");
        assertEquals("tickers 1", run.withAgent.stdoutLineStartingWith("tickers "), run.withAgent.describe());
    }

    @OnEachJdk
    void theAgentOpensNoSocket(int featureVersion) {
        Run run = runOn(featureVersion);

        assertEquals(run.withoutAgent.stdoutLineStartingWith("inet-sockets "),
                run.withAgent.stdoutLineStartingWith("inet-sockets "), run.withAgent.describe());
        assertEquals("inet-sockets 0", run.withAgent.stdoutLineStartingWith("inet-sockets "),
                run.withAgent.describe());
        assertTrue(run.withAgent.stdoutLineStartingWith("inet-sockets-with-control ")
                .startsWith("inet-sockets-with-control 1 "), "the count sees a socket the application opens\n"
                + run.withAgent.describe());
    }

    @OnEachJdk
    void theAgentWritesNoFileInTheWorkingOrTemporaryDirectory(int featureVersion) {
        Run run = runOn(featureVersion);

        assertEquals(0, run.withAgent.exitStatus(), run.withAgent.describe());
        assertEquals(List.of(), run.filesLeft, run.withAgent.describe());
    }

    /**
     * Under JDK 11's default the application can open the clock's fields, as it can open {@code String}'s, and the
     * JVM says so on stderr: the limit the README states, and its sign.
     */
    @Test
    void onJava11TheDefaultIllegalAccessOpensTheClockAndTheJvmWarns() {
        Jdk jdk = Jdks.require(Jdks.JDK_11);
        ForkResult permitted = new ForkedJvm(jdk, workDirectory.resolve("jdk-11-permit"))
                .javaagent(BuildOutputs.agentJar(), OPTIONS)
                .classPath(BuildOutputs.testClasses())
                .runMain(TamperingMain.class.getName());

        assertEquals(0, permitted.exitStatus(), permitted.describe());
        assertEquals("member CELLS allowed", permitted.stdoutLineStartingWith("member CELLS "), permitted.describe());
        assertTrue(permitted.stderr().stream().anyMatch(line -> line.startsWith("WARNING: Illegal reflective access by "
                + TamperingMain.class.getName()) && line.endsWith(" to field java.lang.ClockAgentCachedClock.CELLS")),
                permitted.describe());
    }

    private static Run runOn(int featureVersion) {
        Jdk jdk = Jdks.require(featureVersion);
        return RUNS.computeIfAbsent(featureVersion, version -> fork(jdk));
    }

    private static Run fork(Jdk jdk) {
        Path runDirectory = workDirectory.resolve("jdk-" + jdk.featureVersion());
        Path emptyWorkingDirectory = createDirectories(runDirectory.resolve("cwd"));
        Path emptyTemporaryDirectory = createDirectories(runDirectory.resolve("tmp"));
        ForkedJvm jvmWithAgent = new ForkedJvm(jdk, runDirectory.resolve("output"))
                .javaagent(BuildOutputs.agentJar(), OPTIONS)
                .option("-XX:-UsePerfData", "-Djava.io.tmpdir=" + emptyTemporaryDirectory);
        if (jdk.featureVersion() < DENIES_ILLEGAL_ACCESS_FROM) {
            jvmWithAgent.option("--illegal-access=deny");
        }
        ForkResult withAgent = jvmWithAgent
                .classPath(BuildOutputs.testClasses())
                .workingDirectory(emptyWorkingDirectory)
                .runMain(TamperingMain.class.getName());
        ForkResult withoutAgent = new ForkedJvm(jdk, runDirectory.resolve("output"))
                .classPath(BuildOutputs.testClasses())
                .runMain(TamperingMain.class.getName(), "sockets");
        assertEquals(0, withoutAgent.exitStatus(), withoutAgent.describe());
        return new Run(withAgent, withoutAgent, filesUnder(emptyWorkingDirectory, emptyTemporaryDirectory));
    }

    private static List<Path> filesUnder(Path... directories) {
        try {
            List<Path> files = new ArrayList<>();
            for (Path directory : directories) {
                try (Stream<Path> walk = Files.walk(directory)) {
                    files.addAll(walk.filter(path -> !path.equals(directory)).collect(Collectors.toList()));
                }
            }
            return files;
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
    }

    private static Path createDirectories(Path directory) {
        try {
            return Files.createDirectories(directory);
        } catch (IOException unwritable) {
            throw new UncheckedIOException(unwritable);
        }
    }

    /** @param filesLeft what the run with the agent left in its working and temporary directories */
    private record Run(ForkResult withAgent, ForkResult withoutAgent, List<Path> filesLeft) {
    }
}
