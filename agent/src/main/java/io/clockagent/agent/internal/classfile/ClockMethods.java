package io.clockagent.agent.internal.classfile;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@link ClockMethod}s whose uses a rewrite redirects in this JVM: the library clocks unless the options leave them
 * alone, and the service's own that the options name. Immutable, but for the service's own methods withdrawn as their
 * class loads without them ({@link #withdraw}), after which rewrites leave their uses as they are; thread-safe.
 *
 * <p>The rewriter's first walk over a constant pool asks {@link #isOwner} of every name whose length some owner has,
 * so that a class naming none of them costs one array load per name more than before.
 */
public final class ClockMethods {

    /** None: every use of such a method stays as it is. */
    public static final ClockMethods NONE = new ClockMethods(List.of());

    private final List<ClockMethod> methods;
    /** The owners' names, each once, as a Utf8 entry of a class file holds them ({@link ClockMethod#ownerBytes}). */
    private final byte[][] owners;
    /** Whether some owner's name has this length, up to the longest. */
    private final boolean[] ownerLengths;
    /** Bit {@code i} set once the {@code i}-th method is withdrawn; only the first 64 can be. */
    private final AtomicLong withdrawn = new AtomicLong();

    private ClockMethods(List<ClockMethod> methods) {
        this.methods = List.copyOf(methods);
        LinkedHashSet<String> distinct = new LinkedHashSet<>();
        for (ClockMethod method : methods) {
            distinct.add(method.owner());
        }
        owners = new byte[distinct.size()][];
        int longest = -1;
        int n = 0;
        for (ClockMethod method : methods) {
            if (!distinct.remove(method.owner())) {
                continue;
            }
            owners[n] = method.ownerBytes();
            longest = Math.max(longest, owners[n].length);
            n++;
        }
        ownerLengths = new boolean[longest + 1];
        for (byte[] owner : owners) {
            ownerLengths[owner.length] = true;
        }
    }

    /** These methods, each once, in the order given. */
    public static ClockMethods of(List<ClockMethod> methods) {
        return methods.isEmpty() ? NONE : new ClockMethods(new ArrayList<>(new LinkedHashSet<>(methods)));
    }

    /** The library clocks of {@link LibraryClock#ALL}, then {@code ownClocks}, each once. */
    public static ClockMethods libraryClocksAnd(List<ClockMethod> ownClocks) {
        List<ClockMethod> all = new ArrayList<>();
        for (LibraryClock clock : LibraryClock.ALL) {
            all.add(clock.method());
        }
        all.addAll(ownClocks);
        return of(all);
    }

    public List<ClockMethod> methods() {
        return methods;
    }

    /** Withdraws the {@code index}-th method, which its class turned out not to declare as static: for good. */
    public void withdraw(int index) {
        withdrawn.getAndAccumulate(1L << index, (was, bit) -> was | bit);
    }

    boolean withdrawn(int index) {
        return index < Long.SIZE && (withdrawn.get() & 1L << index) != 0;
    }

    public boolean isEmpty() {
        return methods.isEmpty();
    }

    /** Whether the Utf8 text of {@code length} bytes at {@code start}, inside the class file, is an owner's name. */
    boolean isOwner(byte[] classFile, int start, int length) {
        if (length >= ownerLengths.length || !ownerLengths[length]) {
            return false;
        }
        for (byte[] owner : owners) {
            if (owner.length == length && Arrays.equals(classFile, start, start + length, owner, 0, length)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the bytes hold some owner's name anywhere: a class file that does not cannot use these methods. */
    boolean mayBeNamedIn(byte[] classFile) {
        for (byte[] owner : owners) {
            if (CallSiteRewriter.contains(classFile, owner)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a class, by its internal name, declares one of these methods. */
    public boolean ownsClass(String internalName) {
        for (ClockMethod method : methods) {
            if (method.owner().length() == internalName.length() && method.owner().equals(internalName)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Which of the first {@code most} methods have their class named somewhere in the bytes, by bit: those a rewrite of
     * the class redirected the uses of, where it was rewritten.
     */
    public long ownersNamedIn(byte[] classFile, int most) {
        long named = 0;
        for (int i = 0; i < methods.size() && i < most; i++) {
            if (CallSiteRewriter.contains(classFile, methods.get(i).ownerBytes())) {
                named |= 1L << i;
            }
        }
        return named;
    }
}
