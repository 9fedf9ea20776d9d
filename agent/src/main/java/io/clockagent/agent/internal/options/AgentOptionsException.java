package io.clockagent.agent.internal.options;

/** A bad agent option; the message names the offending token and the valid forms, on one line. */
public final class AgentOptionsException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final boolean strictRequested;

    AgentOptionsException(String message) {
        this(message, false);
    }

    AgentOptionsException(String message, boolean strictRequested) {
        super(message);
        this.strictRequested = strictRequested;
    }

    /** Whether {@code strict=true} was among the options, so that the bad option must stop the JVM. */
    public boolean strictRequested() {
        return strictRequested;
    }
}
