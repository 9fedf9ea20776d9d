package io.clockagent.it.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A directory on a fresh {@code tmpfs} mounted {@code noexec}, as hardened hosts mount {@code /tmp}: no library
 * there can be mapped executable. Mounting takes root; elsewhere the tests that need it are skipped, never passed.
 * Closing unmounts it.
 */
public final class NoexecMount implements AutoCloseable {

    private static final long COMMAND_TIMEOUT_SECONDS = 30;

    private final Path directory;

    private NoexecMount(Path directory) {
        this.directory = directory;
    }

    /**
     * Mounts a small {@code noexec} tmpfs on {@code directory}, creating it. Where that fails, prints a notice to
     * stdout and aborts the calling test through a JUnit assumption, which reports it as skipped.
     */
    public static NoexecMount require(Path directory) throws IOException {
        Files.createDirectories(directory);
        String failure = run("mount", "-t", "tmpfs", "-o", "noexec,size=4m", "tmpfs", directory.toString());
        if (failure != null) {
            String notice = "NOTICE: cannot mount a noexec tmpfs (" + failure + "; that takes root); this test is"
                    + " SKIPPED, not passed.";
            System.out.println(notice);
            Assumptions.abort(notice);
        }
        return new NoexecMount(directory);
    }

    public Path directory() {
        return directory;
    }

    /** What the mount holds now. */
    public List<Path> contents() throws IOException {
        try (var entries = Files.list(directory)) {
            return entries.toList();
        }
    }

    @Override
    public void close() {
        String failure = run("umount", directory.toString());
        if (failure != null) {
            throw new IllegalStateException("could not unmount " + directory + ": " + failure);
        }
    }

    /** Null if the command succeeded, else what went wrong. */
    private static String run(String... command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!process.waitFor(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return String.join(" ", command) + " still running";
            }
            return process.exitValue() == 0 ? null : String.join(" ", command) + ": " + output;
        } catch (IOException notInstalled) {
            return notInstalled.getMessage();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
