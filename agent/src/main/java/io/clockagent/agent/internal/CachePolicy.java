package io.clockagent.agent.internal;

/** When the ticker keeps the cached value published: the {@code cache} option. */
public enum CachePolicy {
    /**
     * Only while caching pays on this host at the read rate the agent estimates: while the reads it saves cost more
     * than its ticker does ({@link CachingDecision}).
     */
    AUTO("auto"),
    /** Whenever anything reads the clock, whatever the rate. */
    ALWAYS("always");

    private final String optionValue;

    CachePolicy(String optionValue) {
        this.optionValue = optionValue;
    }

    public String optionValue() {
        return optionValue;
    }

    static CachePolicy parse(OptionToken token) {
        for (CachePolicy policy : values()) {
            if (policy.optionValue.equals(token.value())) {
                return policy;
            }
        }
        throw new AgentOptionsException("bad value in " + token.quoted() + "; valid values: auto, always");
    }
}
