package io.clockagent.agent.internal.clock;

import java.util.Locale;

/**
 * How the ticker waits for the next tick boundary where reading the wall clock is cheap. Where it is slow (a system
 * call, an hpet read), either parks to the boundary and spins on nothing: see {@link WallReadCost}.
 */
public enum WaitStrategy {
    /**
     * Park until the boundary: each tick is published as late as the kernel wakes the ticker (tens of microseconds on
     * a virtual machine, a few on bare metal), and the ticker costs what 1,000 wake-ups a second cost and no more.
     */
    PARK,
    /**
     * Park until 100 us before the boundary, then spin on it: exact to a few microseconds, for the CPU of up to
     * 100 us of spinning a tick, several times what the wake-ups cost at tick=1ms.
     */
    SPIN;

    /** How the option spells it: the constant's name in lower case, as the option parser matches it. */
    public String optionValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
