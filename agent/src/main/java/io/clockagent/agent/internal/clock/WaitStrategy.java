package io.clockagent.agent.internal.clock;

import java.util.Locale;

/**
 * How the ticker waits for the next tick boundary where reading the wall clock is cheap. Where it is slow (a system
 * call, an hpet read), either parks to the boundary and spins on nothing: see {@link WallReadCost}.
 */
public enum WaitStrategy {
    /**
     * Park until just before the boundary, by as much as the kernel's wake-ups have lately been late (at most 50 us),
     * and spin the rest: cheap, and exact even where waking a parked thread takes tens of microseconds.
     */
    PARK,
    /** Park until shortly before the boundary, then spin on it: exact to a few microseconds, costs a little CPU. */
    SPIN;

    /** How the option spells it: the constant's name in lower case, as the option parser matches it. */
    public String optionValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
