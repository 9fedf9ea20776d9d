package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.clockagent.it.fixtures.failedbatch.FailedBatchMain;
import io.clockagent.it.fixtures.failedbatch.agent.SpoilingAgent;
import io.clockagent.it.fixtures.failedbatch.sites.FirstStamp;
import io.clockagent.it.fixtures.failedbatch.sites.SecondStamp;
import io.clockagent.it.fixtures.failedbatch.sites.SpoiledStamp;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.JarBuilder;
import io.clockagent.it.support.Jdk;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.LiveJvm;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An attach whose batch of loaded classes the JVM refuses (another agent spoils one class's retransformation) retries
 * the batch one class at a time: each class the retry rewrites is counted and shown once, in the report and the
 * {@code verbose} lines, and the class left as it was is named in one line and counted nowhere; through the native
 * start and through the Java start ({@code nativeFilter=false}), each of which counts what a retransformation of its
 * own shows it only once that retransformation took.
 */
class FailedRetransformBatchTest {

    private static final String SITES = FirstStamp.class.getPackageName();

    @TempDir
    static Path workDirectory;
    private static Path spoilingAgentJar;

    @BeforeAll
    static void writeTheSpoilingAgentsJar() {
        spoilingAgentJar = new JarBuilder()
                .manifestAttribute("Premain-Class", SpoilingAgent.class.getName())
                .manifestAttribute("Can-Retransform-Classes", "true")
                .addPackage(BuildOutputs.testClasses(), SpoilingAgent.class.getPackageName().replace('.', '/'))
                .writeTo(workDirectory.resolve("spoiling-agent.jar"));
    }

    @ParameterizedTest(name = "on JDK {0} with nativeFilter={1}")
    @CsvSource({"17, true", "17, false", "25, true", "25, false"})
    void aFailedBatchCountsAndShowsEachRetransformedClassOnce(int featureVersion, boolean nativeFilter,
            @TempDir Path runDirectory) {
        Jdk jdk = Jdks.require(featureVersion);
        ForkResult end;
        ForkResult attach;
        try (LiveJvm target = new ForkedJvm(jdk, runDirectory)
                .javaagent(spoilingAgentJar, SpoiledStamp.class.getName().replace('.', '/'))
                .classPath(BuildOutputs.testClasses())
                .startMain(FailedBatchMain.class.getName())) {
            target.awaitLine("ready");
            attach = new ForkedJvm(jdk, runDirectory).runJar(BuildOutputs.agentJar(), "attach",
                    Long.toString(target.pid()),
                    "include=" + SITES + ",verbose=true,report=summary,nativeFilter=" + nativeFilter);
            end = target.finish();
        }
        String describe = "attach: " + attach.describe() + "\ntarget: " + end.describe();

        assertEquals(0, attach.exitStatus(), describe);
        assertEquals(0, end.exitStatus(), describe);
        List<String> lines = end.stderr().stream()
                .filter(line -> line.startsWith("clock-agent: ") && !line.contains(" caching "))
                .filter(line -> !line.startsWith("clock-agent: report: ") || line.contains(" classes scanned, "))
                .collect(Collectors.toList());
        String spoiled = "clock-agent: left " + SpoiledStamp.class.getName();
        // The Java transformer, after the spoiling agent's, reads its truncated bytes, and names that once.
        List<String> expected = nativeFilter ? List.of(
                spoiled + " as it was: could not retransform it: JVMTI_ERROR_INVALID_CLASS_FORMAT",
                "clock-agent: report: 2 classes scanned, 2 rewritten, 0 failed; 2 call sites and 0 method references")
                : List.of(spoiled + " as it was: could not retransform it: java.lang.ClassFormatError",
                        spoiled + " unchanged: truncated class file: needs byte 8 of 4",
                        "clock-agent: report: 2 classes scanned, 2 rewritten, 1 failed; 2 call sites and 0 method"
                                + " references");
        // Sorted: the JVM hands out the loaded classes, and so the lines, in no set order.
        assertEquals(Stream.concat(expected.stream(), Stream.of(
                "clock-agent: rewrote " + FirstStamp.class.getName() + ": 1 call sites, 0 method references",
                "clock-agent: rewrote " + SecondStamp.class.getName() + ": 1 call sites, 0 method references"))
                .collect(Collectors.toList()), lines.stream().sorted().collect(Collectors.toList()), describe);
    }
}
