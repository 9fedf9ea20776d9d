package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.clockagent.it.fixtures.attach.AttachTargetMain;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdk;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.LiveJvm;
import io.clockagent.it.support.OnEachJdk;
import io.clockagent.it.support.OtherUser;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code java -jar clock-agent.jar attach PID} refuses a process it cannot load into with one stderr line, naming the
 * reason, and exit status 1, before it tries anything that would hang or print a stack trace.
 */
class AttachErrorsTest {

    private static final int FAILED = 1;

    @OnEachJdk
    void aPidWithNoProcessIsRefused(int featureVersion, @TempDir Path runDirectory) throws IOException {
        long pid;
        // Above the kernel's largest pid, so no process can ever have it. Read as a stream: a sysctl file returns
        // nothing past the first read, and Files.readString reads one byte first.
        try (BufferedReader pidMax = Files.newBufferedReader(Path.of("/proc/sys/kernel/pid_max"))) {
            pid = Long.parseLong(pidMax.readLine().trim()) + 1;
        }

        ForkResult cli = attach(Jdks.require(featureVersion), runDirectory, pid, null);

        assertRefused(cli, pid, "no process has that id");
    }

    @OnEachJdk
    void aProcessThatIsNotAJvmIsRefused(int featureVersion, @TempDir Path runDirectory) throws IOException {
        Process sleep = new ProcessBuilder("sleep", "120").start();
        try {
            ForkResult cli = attach(Jdks.require(featureVersion), runDirectory, sleep.pid(), null);

            assertRefused(cli, sleep.pid(), "it is not a JVM");
        } finally {
            sleep.destroyForcibly();
        }
    }

    @OnEachJdk
    void aJvmWithAttachDisabledIsRefused(int featureVersion, @TempDir Path runDirectory) {
        Jdk jdk = Jdks.require(featureVersion);
        try (LiveJvm target = new ForkedJvm(jdk, runDirectory)
                .option("-XX:+DisableAttachMechanism")
                .classPath(BuildOutputs.testClasses())
                .startMain(AttachTargetMain.class.getName())) {
            target.awaitLine("ready");

            ForkResult cli = attach(jdk, runDirectory, target.pid(), null);

            assertRefused(cli, target.pid(), "attach is disabled in it (-XX:+DisableAttachMechanism)");
        }
    }

    @OnEachJdk
    void aJvmOfAnotherUserIsRefused(int featureVersion, @TempDir Path runDirectory) {
        Jdk jdk = Jdks.require(featureVersion);
        String otherUser = OtherUser.requireRunning(jdk, BuildOutputs.agentJar());
        try (LiveJvm target = new ForkedJvm(jdk, runDirectory)
                .classPath(BuildOutputs.testClasses())
                .startMain(AttachTargetMain.class.getName())) {
            target.awaitLine("ready");

            ForkResult cli = attach(jdk, runDirectory, target.pid(), otherUser);

            assertRefused(cli, target.pid(), "it belongs to " + System.getProperty("user.name")
                    + "; run this command as that user");
        }
    }

    /** @param user who runs the command, or null for the test's own user */
    private static ForkResult attach(Jdk jdk, Path runDirectory, long pid, String user) {
        ForkedJvm cli = new ForkedJvm(jdk, runDirectory);
        if (user != null) {
            cli.asUser(user);
        }
        return cli.runJar(BuildOutputs.agentJar(), "attach", Long.toString(pid));
    }

    private static void assertRefused(ForkResult cli, long pid, String reason) {
        assertEquals(FAILED, cli.exitStatus(), cli.describe());
        assertEquals(List.of("clock-agent: cannot attach to " + pid + ": " + reason), cli.stderr(), cli.describe());
        assertEquals(List.of(), cli.stdout(), cli.describe());
    }
}
