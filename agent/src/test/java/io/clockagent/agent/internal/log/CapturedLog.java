package io.clockagent.agent.internal.log;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** The agent's log, written into a stream a test reads, for the tests of every room. */
public final class CapturedLog {

    private CapturedLog() {
    }

    public static AgentLog into(OutputStream out) {
        return new AgentLog(new PrintStream(out, true, StandardCharsets.UTF_8), false);
    }
}
