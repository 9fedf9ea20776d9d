package io.clockagent.agent.internal;

import java.io.PrintStream;

/**
 * The agent's only output: whole lines on stderr, prefixed so they are never mistaken for the application's. It
 * never touches the application's logging framework. Thread-safe.
 */
final class AgentLog {

    static final String PREFIX = "clock-agent: ";

    private final PrintStream err;

    AgentLog(PrintStream err) {
        this.err = err;
    }

    void line(String message) {
        err.println(PREFIX + message);
    }
}
