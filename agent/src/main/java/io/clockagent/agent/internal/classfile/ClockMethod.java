package io.clockagent.agent.internal.classfile;

import java.nio.charset.StandardCharsets;

/**
 * A static method of descriptor {@code ()J} that returns the epoch milliseconds, such as a library's own cached
 * clock: its uses are redirected to the cached clock's {@code currentTimeMillis()}, which returns the same quantity,
 * so that the method's class, and the thread it starts to refresh its value, never has to start. Immutable.
 */
public final class ClockMethod {

    private final String owner;
    private final String name;
    /** Whether the method is known to be static, as a library clock's is; else each use is checked to be static. */
    private final boolean knownStatic;
    /** The two as a class file's Utf8 entries hold them (see {@link ClockMethods}), for the rewriter's comparisons. */
    private final byte[] ownerBytes;
    private final byte[] nameBytes;

    /**
     * One the agent knows by name alone, as the service names it ({@code clocks}): a class's uses of it are redirected
     * only where each is static ({@link StaticUses}).
     *
     * @param owner the class that declares it, in internal form ({@code com/acme/time/SystemClock})
     * @param name the method's name ({@code now})
     */
    public ClockMethod(String owner, String name) {
        this(owner, name, false);
    }

    ClockMethod(String owner, String name, boolean knownStatic) {
        this.owner = owner;
        this.name = name;
        this.knownStatic = knownStatic;
        this.ownerBytes = owner.getBytes(StandardCharsets.UTF_8);
        this.nameBytes = name.getBytes(StandardCharsets.UTF_8);
    }

    /** The class that declares it, in internal form. */
    public String owner() {
        return owner;
    }

    public String name() {
        return name;
    }

    public boolean knownStatic() {
        return knownStatic;
    }

    byte[] ownerBytes() {
        return ownerBytes;
    }

    byte[] nameBytes() {
        return nameBytes;
    }

    /** As a user names it: {@code com.acme.time.SystemClock.now}. */
    public String describe() {
        return owner.replace('/', '.') + '.' + name;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ClockMethod && ((ClockMethod) other).owner.equals(owner)
                && ((ClockMethod) other).name.equals(name);
    }

    @Override
    public int hashCode() {
        return owner.hashCode() * 31 + name.hashCode();
    }

    @Override
    public String toString() {
        return describe();
    }
}
