package io.clockagent.stacks.libraryclocks;

import java.util.function.LongSupplier;

/**
 * One id generator of a library, and the check of every id it hands out: each must be greater than the one before it,
 * whichever thread took either, which makes them unique too. A generator that refuses an id because its clock moved
 * backwards is counted, not failed: that refusal is what the tests look for. Any thread may take ids; each take holds
 * this object's lock, as both generators hold their own.
 */
final class CheckedIds {

    /** What {@link #take} returns for an id the generator refused; snowflake ids are positive. */
    static final long REFUSED = -1L;
    /** The words both libraries' refusals start with ("Clock moved backwards.  Refusing to generate id ..."). */
    private static final String CLOCK_MOVED_BACKWARDS = "Clock moved backwards";

    private final String name;
    private final LongSupplier generator;
    private long lastId = Long.MIN_VALUE;
    private long taken;
    private long notIncreasing;
    private long clockBackwards;

    /** @param name the key prefix of its counts, such as {@code mybatisPlus} */
    CheckedIds(String name, LongSupplier generator) {
        this.name = name;
        this.generator = generator;
    }

    String name() {
        return name;
    }

    /** The next id, or {@link #REFUSED} where the generator refused it because its clock moved backwards. */
    synchronized long take() {
        long id;
        try {
            id = generator.getAsLong();
        } catch (RuntimeException refused) {
            if (refused.getMessage() == null || !refused.getMessage().startsWith(CLOCK_MOVED_BACKWARDS)) {
                throw refused;
            }
            clockBackwards++;
            return REFUSED;
        }
        taken++;
        if (id <= lastId) {
            notIncreasing++;
        }
        lastId = id;
        return id;
    }

    /** {@code NAMEIds=N NAMENotIncreasing=N NAMEClockBackwards=N}, for the {@code stats} command. */
    synchronized String describe() {
        return name + "Ids=" + taken + " " + name + "NotIncreasing=" + notIncreasing + " " + name + "ClockBackwards="
                + clockBackwards;
    }
}
