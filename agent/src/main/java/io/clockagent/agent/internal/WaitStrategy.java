package io.clockagent.agent.internal;

/** How the ticker waits for the next tick boundary. */
public enum WaitStrategy {
    /** Park until the boundary: cheapest, exact as long as the kernel wakes the ticker in time. */
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
