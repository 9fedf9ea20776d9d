package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.jcstress.CachedClockCoherence;
import io.clockagent.it.jcstress.CachedClockTearing;
import io.clockagent.it.jcstress.CachedClockWithdrawal;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdk;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.OnEachJdk;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the cached clock's jcstress tests (package {@code io.clockagent.it.jcstress}) on each JDK in a cut-down quick
 * mode: one forked JVM per test (two on JDK 17, with and without biased locking), three iterations of 200 ms each,
 * the actors going from the interpreter through C1 to C2 as the JVM warms up, and C2's scheduling and value
 * numbering randomised, since C2 is what could move an access that is too weak. Per-actor split compilation
 * ({@code -sc true}) would multiply the forks by nine, to minutes on a shared machine. Fails on any forbidden
 * outcome or error, as jcstress judges them.
 */
class CachedClockConcurrencyTest {

    private static final List<Class<?>> JCSTRESS_TESTS =
            List.of(CachedClockTearing.class, CachedClockCoherence.class, CachedClockWithdrawal.class);
    /** jcstress takes about 10 s on JDK 25 and 15 s on JDK 17 on a busy machine; only a hang comes near this. */
    private static final long PATIENCE_SECONDS = 180;
    private static final Pattern TOTALS = Pattern.compile(
            "\\(Results: (\\d+) planned; (\\d+) passed, (\\d+) failed, (\\d+) soft errs, (\\d+) hard errs\\)");

    @OnEachJdk
    void everyJcstressOutcomeOfTheCachedClockIsAllowed(int featureVersion, @TempDir Path runDirectory) {
        Jdk jdk = Jdks.require(featureVersion);
        ForkResult result = new ForkedJvm(jdk, runDirectory)
                .classPath(testClassPath())
                // jcstress writes its result blob into the working directory.
                .workingDirectory(runDirectory)
                .timeoutSeconds(PATIENCE_SECONDS)
                .runMain("org.openjdk.jcstress.Main",
                        "-t", Pattern.quote(CachedClockTearing.class.getPackageName() + ".") + ".*",
                        "-m", "quick",
                        "-iters", "3",
                        "-time", "200",
                        "-sc", "false",
                        "-jvmArgs", "-XX:+UnlockDiagnosticVMOptions -XX:+StressLCM -XX:+StressGCM"
                                // JDK 16 added the randomizer of C2's value numbering.
                                + (jdk.featureVersion() >= 16 ? " -XX:+StressIGVN" : ""),
                        "-r", runDirectory.resolve("results").toString(),
                        "-v");

        assertEquals(0, result.exitStatus(), result.describe());
        assertTrue(result.stdout().containsAll(List.of("  Failed tests: No matches.", "  Error tests: No matches.")),
                result.describe());
        Matcher totals = lastTotals(result);
        assertTrue(Integer.parseInt(totals.group(1)) >= JCSTRESS_TESTS.size(), totals.group());
        assertEquals(totals.group(1), totals.group(2), "every configuration passed: " + totals.group());
        for (Class<?> test : JCSTRESS_TESTS) {
            assertTrue(result.stdout().stream().anyMatch(line -> line.endsWith("[OK] " + test.getName())),
                    test.getName() + " ran and passed\n" + result.describe());
        }
    }

    private static Matcher lastTotals(ForkResult result) {
        Matcher last = null;
        for (String line : result.stdout()) {
            Matcher totals = TOTALS.matcher(line);
            if (totals.matches()) {
                last = totals;
            }
        }
        assertTrue(last != null, "jcstress printed no totals\n" + result.describe());
        return last;
    }

    /**
     * This JVM's class path, which Surefire sets to the test class path: the jcstress tests and their generated
     * harnesses, jcstress itself, and the agent jar that holds the clock class. jcstress passes it on to its forks,
     * which run in another directory.
     */
    private static Path[] testClassPath() {
        return Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(entry -> Path.of(entry).toAbsolutePath())
                .collect(Collectors.toList())
                .toArray(new Path[0]);
    }
}
