package io.clockagent.demo.compare;

/** Whether a forked demo run loads the agent. */
enum AgentMode {
    OFF("agent off"),
    ON("agent on");

    private final String label;

    AgentMode(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }

    String fileTag() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
