package io.clockagent.it.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A forked JVM that keeps running while the test talks to it: commands go in as stdin lines, replies come back as
 * stdout lines. Used from one test thread; a daemon thread of its own drains stdout.
 */
public final class LiveJvm implements AutoCloseable {

    private static final long POLL_MILLIS = 100;

    private final List<String> command;
    private final Process process;
    private final Path stderrFile;
    private final long timeoutSeconds;
    private final Writer stdin;
    private final List<String> stdout = Collections.synchronizedList(new ArrayList<>());
    private final BlockingQueue<String> unread = new LinkedBlockingQueue<>();
    private final Thread stdoutDrain;

    LiveJvm(List<String> command, Process process, Path stderrFile, long timeoutSeconds) {
        this.command = command;
        this.process = process;
        this.stderrFile = stderrFile;
        this.timeoutSeconds = timeoutSeconds;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        this.stdoutDrain = new Thread(this::drainStdout, "live-jvm-stdout-" + process.pid());
        stdoutDrain.setDaemon(true);
        stdoutDrain.start();
    }

    public long pid() {
        return process.pid();
    }

    /** Sends one command line to the JVM's stdin. */
    public void send(String line) {
        try {
            stdin.write(line + "\n");
            stdin.flush();
        } catch (IOException closed) {
            throw new AssertionError("could not send '" + line + "'\n" + describe(), closed);
        }
    }

    /** Sends a command and returns the first reply line that starts with {@code replyPrefix}. */
    public String ask(String command, String replyPrefix) {
        send(command);
        return awaitLine(replyPrefix);
    }

    /**
     * The next stdout line, not yet returned, that starts with {@code prefix}; lines before it are skipped. Fails the
     * test when the JVM ends, or prints nothing of the kind within the timeout, which only a hung JVM reaches.
     */
    public String awaitLine(String prefix) {
        long deadlineNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        try {
            while (System.nanoTime() - deadlineNanos < 0) {
                String line = unread.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
                if (line != null && line.startsWith(prefix)) {
                    return line;
                }
                if (line == null && !stdoutDrain.isAlive() && unread.isEmpty()) {
                    throw new AssertionError("the JVM closed its stdout before printing '" + prefix + "'\n"
                            + describe());
                }
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for '" + prefix + "'", interrupted);
        }
        throw new AssertionError("no stdout line starting with '" + prefix + "' within " + timeoutSeconds + " s\n"
                + describe());
    }

    /** Everything the JVM has written to stderr so far. */
    public List<String> stderr() {
        return ForkedJvm.lines(stderrFile);
    }

    /** Closes stdin, which tells the fixtures to end, and waits for the JVM to exit. */
    public ForkResult finish() {
        try {
            stdin.close();
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                throw new AssertionError("JVM still running " + timeoutSeconds + " s after its stdin closed\n"
                        + describe());
            }
            stdoutDrain.join(TimeUnit.SECONDS.toMillis(timeoutSeconds));
            return new ForkResult(command, process.exitValue(), List.copyOf(stdout), stderr());
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for the JVM to exit", interrupted);
        }
    }

    /** Kills the JVM if it still runs; a test that failed half way leaves no process behind. */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }

    public String describe() {
        return "command: " + String.join(" ", command) + "\n--- stdout so far ---\n" + String.join("\n",
                List.copyOf(stdout)) + "\n--- stderr so far ---\n" + String.join("\n", stderr()) + "\n---";
    }

    private void drainStdout() {
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                stdout.add(line);
                unread.add(line);
            }
        } catch (IOException closed) {
            // The JVM is gone; awaitLine reports what it printed before.
        }
    }
}
