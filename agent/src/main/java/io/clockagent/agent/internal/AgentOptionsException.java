package io.clockagent.agent.internal;

/** A bad agent option; the message names the offending token and the valid forms, on one line. */
public final class AgentOptionsException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public AgentOptionsException(String message) {
        super(message);
    }
}
