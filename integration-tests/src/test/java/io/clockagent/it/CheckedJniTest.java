package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.attach.AttachTargetMain;
import io.clockagent.it.fixtures.operability.OperableServiceMain;
import io.clockagent.it.fixtures.operability.sites.KnownSites;
import io.clockagent.it.support.AgentEntry;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.DistinctMillis;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdk;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.LibraryBesideJar;
import io.clockagent.it.support.LiveJvm;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The native library's JNI use as {@code -Xcheck:jni} judges it: no call into Java followed by another JNI call
 * without an exception check, no local references beyond the capacity declared. The representative ways through it,
 * each in a JVM under {@code -Xcheck:jni}: the start through either entry with its report at exit (the Java side
 * loaded on the main thread at VMInit, the classes loaded before the hook retransformed, each rewritten class shown),
 * and an attach through {@code jcmd JVMTI.agent_load} followed by a detach (the classes loaded retransformed both
 * ways). Any line the check writes fails the run.
 */
class CheckedJniTest {

    private static final String CHECK_JNI = "-Xcheck:jni";
    private static final String SITES = KnownSites.class.getPackageName();
    private static final String ATTACHED = AttachTargetMain.class.getPackageName();

    @ParameterizedTest(name = "on JDK {0} through {1}")
    @MethodSource("io.clockagent.it.support.AgentEntry#onJdks17And25")
    void theStartAndTheReportMakeNoJniWarning(int featureVersion, AgentEntry entry, @TempDir Path runDirectory) {
        ForkResult result = entry.addTo(new ForkedJvm(Jdks.require(featureVersion), runDirectory).option(CHECK_JNI),
                "include=" + SITES + ",tick=1s,cache=always,verbose=true,report=summary")
                .classPath(BuildOutputs.testClasses())
                .runMain(OperableServiceMain.class.getName(), "sites", "await-ticker", "probe");

        assertEquals(0, result.exitStatus(), result.describe());
        assertTrue(DistinctMillis.parse(result.stdoutLineStartingWith("probe ")).cached(), result.describe());
        assertTrue(result.stderr().stream().anyMatch(line -> line.startsWith("clock-agent: report: ")),
                "the report ran\n" + result.describe());
        assertNoJniWarning(result.stdout(), result.stderr(), result.describe());
    }

    @ParameterizedTest(name = "on JDK {0}")
    @ValueSource(ints = {Jdks.JDK_17, Jdks.JDK_25})
    void anAttachThroughJcmdAndADetachMakeNoJniWarning(int featureVersion, @TempDir Path runDirectory)
            throws IOException {
        Jdk jdk = Jdks.require(featureVersion);
        jdk.requireModule("jdk.jcmd", "jcmd");
        Path library = LibraryBesideJar.write(jdk, runDirectory);
        ForkResult load;
        ForkResult detach;
        ForkResult end;
        try (LiveJvm target = new ForkedJvm(jdk, runDirectory)
                .option(CHECK_JNI, "-XX:+EnableDynamicAgentLoading")
                .classPath(BuildOutputs.testClasses())
                .startMain(AttachTargetMain.class.getName())) {
            target.awaitLine("ready");
            String pid = Long.toString(target.pid());
            load = new ForkedJvm(jdk, runDirectory).runTool("jcmd", pid, "JVMTI.agent_load", library.toString(),
                    "\"include=" + ATTACHED + ",tick=1s,cache=always,verbose=true\"");
            target.ask("first-tick", "ticking");
            assertTrue(DistinctMillis.parse(target.ask("early", "early ")).cached(), target.describe());
            detach = new ForkedJvm(jdk, runDirectory).runJar(BuildOutputs.agentJar(), "detach", pid);
            assertTrue(DistinctMillis.parse(target.ask("early", "early ")).direct(), target.describe());
            end = target.finish();
        }
        String describe = "jcmd: " + load.describe() + "\ndetach: " + detach.describe() + "\ntarget: "
                + end.describe();

        assertEquals(0, load.exitStatus(), describe);
        assertEquals(0, detach.exitStatus(), describe);
        assertEquals(0, end.exitStatus(), describe);
        assertTrue(end.stderr().stream().anyMatch(line -> line.startsWith("clock-agent: detached: ")), describe);
        assertNoJniWarning(end.stdout(), end.stderr(), describe);
    }

    /** The lines -Xcheck:jni writes, on stdout or stderr as the JDK has it, each followed by a stack. */
    private static void assertNoJniWarning(List<String> stdout, List<String> stderr, String describe) {
        List<String> all = new ArrayList<>(stdout);
        all.addAll(stderr);
        List<String> warnings = all.stream()
                .filter(line -> line.startsWith("WARNING in native method") || line.startsWith("WARNING: JNI"))
                .collect(Collectors.toList());
        assertEquals(List.of(), warnings, describe);
    }
}
