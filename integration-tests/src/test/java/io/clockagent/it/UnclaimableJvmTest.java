package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.clockagent.it.fixtures.claim.UnclaimableMain;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdk;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.LibraryBesideJar;
import io.clockagent.it.support.LiveJvm;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A claim on the JVM that fails (here the service's own system properties refuse it) is no claim: the library loaded
 * through {@code jcmd JVMTI.agent_load} says why in one line and stands down, rather than serve a JVM in which no
 * copy is marked active and a second copy would start beside it.
 */
class UnclaimableJvmTest {

    @ParameterizedTest(name = "on JDK {0}")
    @ValueSource(ints = {Jdks.JDK_17, Jdks.JDK_25})
    void aFailedClaimOnTheJvmIsOneLineAndNoCopyServes(int featureVersion, @TempDir Path runDirectory)
            throws IOException {
        Jdk jdk = Jdks.require(featureVersion);
        jdk.requireModule("jdk.jcmd", "jcmd");
        Path library = LibraryBesideJar.write(jdk, runDirectory);
        ForkResult load;
        ForkResult end;
        try (LiveJvm target = new ForkedJvm(jdk, runDirectory)
                .option("-XX:+EnableDynamicAgentLoading")
                .classPath(BuildOutputs.testClasses())
                .startMain(UnclaimableMain.class.getName())) {
            target.awaitLine("ready");
            load = new ForkedJvm(jdk, runDirectory).runTool("jcmd", Long.toString(target.pid()), "JVMTI.agent_load",
                    library.toString(), "\"include=com.acme\"");
            end = target.finish();
        }
        String describe = "jcmd: " + load.describe() + "\ntarget: " + end.describe();

        assertEquals(0, load.exitStatus(), describe);
        assertEquals(0, end.exitStatus(), describe);
        assertEquals(List.of(AgentStderr.OFF_PREFIX + "could not claim the JVM: java.lang.UnsupportedOperationException: "
                + UnclaimableMain.REFUSAL), end.stderr().stream().filter(line -> line.startsWith("clock-agent: "))
                .collect(Collectors.toList()), describe);
        assertEquals(List.of("ready", "clockagent.active null"), end.stdout(), describe);
    }
}
