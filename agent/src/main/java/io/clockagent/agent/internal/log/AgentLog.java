package io.clockagent.agent.internal.log;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;

/**
 * The agent's only output: whole lines on stderr, prefixed so they are never mistaken for the application's. It
 * never touches the application's logging framework. Thread-safe.
 */
public final class AgentLog {

    static final String PREFIX = "clock-agent: ";

    private final PrintStream err;

    AgentLog(PrintStream err) {
        this.err = err;
    }

    /**
     * Writes to the process's standard error itself, not to {@code System.err}: an application may have replaced
     * that stream with its own code, which would then run with the agent's frames on its stack.
     */
    public static AgentLog toStandardError() {
        return new AgentLog(new PrintStream(new FileOutputStream(FileDescriptor.err), true));
    }

    public void line(String message) {
        err.println(PREFIX + message);
    }
}
