package io.clockagent.it.support;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A second local user to run a JVM as, through {@code runuser}: {@code nobody}, which every Linux system has. Only
 * root may switch users without a password, so elsewhere the tests that need it are skipped, never passed.
 */
public final class OtherUser {

    public static final String NAME = "nobody";

    private OtherUser() {
    }

    /**
     * Returns {@link #NAME} when this process can run commands as that user and the user can run {@code jdk}'s
     * {@code java} on {@code file}. Else prints a notice to stdout and aborts the calling test through a JUnit
     * assumption, which reports it as skipped. (A JDK under a home directory that only its owner may enter, such as
     * root's {@code ~/.cache}, is out of that user's reach: {@code .ci/run} keeps the fetched ones elsewhere.)
     */
    public static String requireRunning(Jdk jdk, Path file) {
        if (NAME.equals(System.getProperty("user.name"))
                || !succeeds("runuser", "-u", NAME, "--", "test", "-r", file.toString())
                || !succeeds("runuser", "-u", NAME, "--", "test", "-x", jdk.javaLauncher().toString())) {
            String notice = "NOTICE: cannot run " + jdk.javaLauncher() + " as '" + NAME + "' on " + file + " (that"
                    + " takes root, runuser, and both files within that user's reach); the other-user run of this test"
                    + " is SKIPPED, not passed.";
            System.out.println(notice);
            Assumptions.abort(notice);
        }
        return NAME;
    }

    private static boolean succeeds(String... command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException noRunuser) {
            return false;
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
