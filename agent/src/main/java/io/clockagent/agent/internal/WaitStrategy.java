package io.clockagent.agent.internal;

/** How the ticker waits for the next tick boundary. */
public enum WaitStrategy {
    /**
     * Park until just before the boundary, by as much as the kernel's wake-ups have lately been late (at most 50 us),
     * and spin the rest: cheap, and exact even where waking a parked thread takes tens of microseconds.
     */
    PARK("park"),
    /** Park until shortly before the boundary, then spin on it: exact to a few microseconds, costs a little CPU. */
    SPIN("spin");

    private final String optionValue;

    WaitStrategy(String optionValue) {
        this.optionValue = optionValue;
    }

    public String optionValue() {
        return optionValue;
    }

    static WaitStrategy parse(OptionToken token) {
        for (WaitStrategy strategy : values()) {
            if (strategy.optionValue.equals(token.value())) {
                return strategy;
            }
        }
        throw new AgentOptionsException("bad value in " + token.quoted() + "; valid values: park, spin");
    }
}
