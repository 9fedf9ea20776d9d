package io.clockagent.agent.internal.caching;

import java.util.Locale;

/** When the ticker keeps the cached value published: the {@code cache} option. */
public enum CachePolicy {
    /**
     * Only while caching pays on this host at the read rate the agent estimates: while the reads it saves cost more
     * than its ticker does ({@link CacheWhileItPays}, {@link CachingDecision}).
     */
    AUTO,
    /** Whenever anything reads the clock, whatever the rate ({@link CacheWhileRead}). */
    ALWAYS;

    /** How the option spells it: the constant's name in lower case, as the option parser matches it. */
    public String optionValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
