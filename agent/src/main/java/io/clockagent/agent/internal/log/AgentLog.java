package io.clockagent.agent.internal.log;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;

/**
 * The agent's only output: whole lines on stderr, prefixed so they are never mistaken for the application's. It
 * never touches the application's logging framework. Two kinds of line: {@link #line} for a fault of the agent's own
 * and for what an option asked for, always printed; {@link #note} for what the agent says by default about what it
 * does, which {@code quiet=true} leaves out. Thread-safe.
 */
public final class AgentLog {

    static final String PREFIX = "clock-agent: ";

    private final PrintStream err;
    private final boolean quiet;

    AgentLog(PrintStream err, boolean quiet) {
        this.err = err;
        this.quiet = quiet;
    }

    /**
     * Writes to the process's standard error itself, not to {@code System.err}: an application may have replaced
     * that stream with its own code, which would then run with the agent's frames on its stack.
     */
    public static AgentLog toStandardError() {
        return new AgentLog(new PrintStream(new FileOutputStream(FileDescriptor.err), true), false);
    }

    /** This log, leaving its notes out where {@code quiet}. */
    public AgentLog quietIf(boolean quiet) {
        return quiet == this.quiet ? this : new AgentLog(err, quiet);
    }

    /** A fault that keeps the agent, or a part of it, from serving, or what an option asked to be told. */
    public void line(String message) {
        err.println(PREFIX + message);
    }

    /** What the agent says unasked: the banner, and what it did or left as it was; left out where quiet. */
    public void note(String message) {
        if (!quiet) {
            line(message);
        }
    }
}
