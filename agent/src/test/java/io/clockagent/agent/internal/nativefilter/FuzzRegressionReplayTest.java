package io.clockagent.agent.internal.nativefilter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The inputs kept in agent/src/test/c/fuzz/regressions/, each run once through every class-file harness of the
 * native code under AddressSanitizer and UndefinedBehaviorSanitizer (fuzz.sh with no time to fuzz), and those of
 * options-corpus/ through the options harness, so that an input that once broke the native code fails the build if it
 * breaks it again. NativeRewriterParityTest holds the class files against the Java rewriter, OptionsCorpusParityTest
 * the options against the Java parser. Skipped, with a notice, where clang with libFuzzer is missing.
 */
class FuzzRegressionReplayTest {

    private static final long BUILD_AND_REPLAY_TIMEOUT_SECONDS = 180;

    @TempDir
    Path workDirectory;

    @Test
    void everyRegressionInputRunsThroughEveryHarnessWithoutAFinding() throws Exception {
        ProcessBuilder builder = new ProcessBuilder("src/test/c/fuzz/fuzz.sh", "0").redirectErrorStream(true);
        builder.environment().put("FUZZ_WORK", workDirectory.toString());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process replay = builder.start();
        String output = new String(replay.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(replay.waitFor(BUILD_AND_REPLAY_TIMEOUT_SECONDS, TimeUnit.SECONDS), "fuzz.sh 0 still running");
        if (output.startsWith("notice:")) {
            String notice = output.strip().replaceFirst("^notice: ", "NOTICE: ")
                    + "; this test is SKIPPED, not passed.";
            System.out.println(notice);
            Assumptions.abort(notice);
        }
        assertEquals(0, replay.exitValue(), output);
        for (String harness : new String[] {"scan", "rewrite", "options"}) {
            assertTrue(output.lines().anyMatch(line -> line.startsWith(harness + ": ")
                    && line.endsWith(" replayed, no crash") && !line.startsWith(harness + ": 0 ")), output);
        }
    }
}
