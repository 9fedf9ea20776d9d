package io.clockagent.agent.internal.rewrite;

import java.util.Locale;

/** What the rewrite does with the uses of the library clocks it knows ({@code libraryClocks}). */
public enum LibraryClockPolicy {
    /** Redirects them to the cached clock, so that the library's clock thread never starts. */
    RETIRE,
    /** Leaves them as they are: the library's clock and its thread run as without the agent. */
    KEEP;

    /** How the option spells it: the constant's name in lower case, as the option parser matches it. */
    public String optionValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
