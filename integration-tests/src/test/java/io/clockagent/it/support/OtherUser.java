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
     * Returns {@link #NAME} when this process can run commands as that user and the user can read {@code file}. Else
     * prints a notice to stdout and aborts the calling test through a JUnit assumption, which reports it as skipped.
     */
    public static String requireReading(Path file) {
        if (NAME.equals(System.getProperty("user.name")) || !succeeds("runuser", "-u", NAME, "--", "test", "-r",
                file.toString())) {
            String notice = "NOTICE: cannot run a command as '" + NAME + "' that reads " + file + " (that takes root"
                    + " and runuser); the other-user run of this test is SKIPPED, not passed.";
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
