package io.clockagent.agent.internal.classfile;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Redirects every use of {@code System.currentTimeMillis()}, of the {@code java.time} methods of
 * {@link RedirectedMethod} and of the {@link ClockMethods} in force, in one class file to static methods of another
 * class, and counts those uses method by method for whoever shows them. Immutable and thread-safe.
 *
 * <p>Every use of such a method in a class (each {@code invokestatic}, each method reference in an
 * {@code invokedynamic} bootstrap argument, each {@code ldc} of a method handle) goes through one of the class's
 * constant-pool {@code Methodref} entries to it. Re-pointing those entries at a new {@code Class} entry appended to the
 * pool (and, where the target method has another name, at a new {@code NameAndType} with the same descriptor)
 * redirects them all while every method body, stack map and existing index stays byte for byte the same. Method bodies
 * are only read by {@link #countSites}, apart from the rewrite, and only when something shows the counts: decoding
 * every instruction of a class costs far more than the redirection itself, and a JVM that loads thousands of classes
 * at startup would pay for counts that nobody reads. Counting never decides what is rewritten, so asking for counts
 * never changes what runs.
 *
 * <p>The class-file constants here and in {@link ConstantPool}, and the list of redirected methods, are the native
 * class filter's too: the build writes them into the C rewriter's {@code class_file_format.h}.
 */
public final class CallSiteRewriter {

    /**
     * Java 25's, the newest class file format this reader was written for. A newer class file is read as one of this
     * format as long as its constant pool holds only tags this format has: the redirect reads and changes nothing but
     * the pool, and steps over the rest of the class by the lengths that every format since 45 has kept. A new kind
     * of constant is the one change a newer format could make that it cannot step over; new instructions, attributes
     * or flags it never reads.
     */
    public static final int NEWEST_KNOWN_MAJOR_VERSION = 69;
    /** 25: from Java 5 on, a release's class file major version is its number plus 44. */
    public static final int NEWEST_KNOWN_JAVA_RELEASE = NEWEST_KNOWN_MAJOR_VERSION - 44;
    /** Java 1.1's; the rewriter reads every version from it on. */
    public static final int MIN_MAJOR_VERSION = 45;
    static final String CLOCK_METHOD_NAME = "currentTimeMillis";
    static final String CLOCK_OWNER_NAME = "java/lang/System";
    static final String CLOCK_DESCRIPTOR = "()J";

    static final String TIME_PACKAGE_NAME = "java/time/";
    private static final byte[] TIME_PACKAGE = ascii(TIME_PACKAGE_NAME);
    private static final int TIME_PACKAGE_T = TIME_PACKAGE_NAME.indexOf('t');
    private static final byte[] METHOD_NAME = ascii(CLOCK_METHOD_NAME);
    private static final byte[] OWNER_NAME = ascii(CLOCK_OWNER_NAME);
    private static final byte[] DESCRIPTOR = ascii(CLOCK_DESCRIPTOR);
    /* How the scan marks the Utf8 entries that hold those three names, in a pool it records. */
    private static final byte MARK_METHOD_NAME = 1;
    private static final byte MARK_OWNER_NAME = 2;
    private static final byte MARK_DESCRIPTOR = 3;
    /* A java.time class that declares a redirected method. */
    private static final byte MARK_TIME_OWNER = 4;
    /* The class of a ClockMethod in force. */
    private static final byte MARK_CLOCK_OWNER = 5;
    /* The java.time owners of RedirectedMethod, and the bounds of their lengths, which the scan tries first. */
    private static final byte[][] TIME_OWNERS = timeOwners();
    private static final int TIME_OWNER_MIN_LENGTH = TIME_OWNERS[0].length;
    private static final int TIME_OWNER_MAX_LENGTH = TIME_OWNERS[TIME_OWNERS.length - 1].length;

    private final byte[] targetInternalName;
    private final ClockMethods clocks;

    /**
     * @param targetInternalName the class that rewritten sites call, such as {@code java/lang/ClockAgentCachedClock}
     * @param clocks the epoch-millis methods whose uses go to its {@code currentTimeMillis()} too
     */
    public CallSiteRewriter(String targetInternalName, ClockMethods clocks) {
        this.targetInternalName = ascii(targetInternalName);
        this.clocks = clocks;
    }

    /**
     * @param cachedInstants whether the class lies in a package of the {@code cachedInstants} option, which redirects
     *     the reads of instants too (see {@link RedirectedMethod})
     * @return the rewritten class file, or null when the class uses no method redirected for it
     * @throws ClassFileException when the bytes cannot be read with certainty; the caller leaves the class unchanged.
     *     A {@link NewerFormatException} when the class file is newer than any version known and holds a constant of a
     *     tag no known version has
     */
    public byte[] rewrite(byte[] classFile, boolean cachedInstants) {
        ClassFileCursor in = new ClassFileCursor(classFile);
        if (in.u4(0) != 0xCAFEBABE) {
            throw new ClassFileException("not a class file (bad magic number)");
        }
        int major = in.u2(6);
        if (major < MIN_MAJOR_VERSION) {
            throw new ClassFileException("bad class file version " + major);
        }
        boolean namesClock;
        try {
            namesClock = scan(classFile, null, clocks);
        } catch (NewerFormatException unreadable) {
            // The walk stopped at the new constant, before it could see all of the pool; only the clock method's name
            // and java.time's package missing from the whole file show that the class needs nothing, and then that it
            // cannot be read is nothing to report.
            if (!contains(classFile, METHOD_NAME) && !contains(classFile, TIME_PACKAGE)
                    && !clocks.mayBeNamedIn(classFile)) {
                return null;
            }
            throw unreadable;
        }
        return namesClock ? redirect(in, cachedInstants) : null;
    }

    /**
     * The cheap check: walks the constant pool's tags and lengths, allocating nothing, and looks for the three names a
     * {@code System.currentTimeMillis()} reference needs, for the java.time classes that declare a redirected method,
     * and for the classes of the clock methods in force. Most classes stop here and load from their original bytes.
     * The few it selects are walked again to record their pool (see {@link #constantPool}): by then this loop is
     * compiled, where a second reader of the pool would still run in the interpreter.
     *
     * <p>It reads the array directly rather than through {@link ClassFileCursor}: it runs for every class in scope,
     * and an index past the end is caught once instead of checked at every read. Entry sizes come from a table with
     * a slot for every byte value, so a tag needs no range check and no branch of its own.
     *
     * @param record null, or an empty pool to fill in: where each entry starts, where the pool ends, and which entries
     *     are Methodrefs or hold one of the three names
     */
    private static boolean scan(byte[] classFile, ConstantPool record, ClockMethods clocks) {
        try {
            int count = (classFile[8] & 0xff) << 8 | classFile[9] & 0xff;
            int position = 10;
            boolean method = false;
            boolean owner = false;
            boolean descriptor = false;
            boolean timeOwner = false;
            boolean clockOwner = false;
            for (int index = 1; index < count; index++) {
                int tag = classFile[position] & 0xff;
                int size = ConstantPool.ENTRY_SIZES[tag];
                if (record != null) {
                    record.entryAt(index, position, tag);
                }
                if (tag == ConstantPool.TAG_UTF8) {
                    int length = (classFile[position + 1] & 0xff) << 8 | classFile[position + 2] & 0xff;
                    // The three names differ in length, so at most one comparison runs, and for most names none.
                    if (length == METHOD_NAME.length && regionEquals(classFile, position + 3, METHOD_NAME)) {
                        method = true;
                        mark(record, index, MARK_METHOD_NAME);
                    } else if (length == OWNER_NAME.length && regionEquals(classFile, position + 3, OWNER_NAME)) {
                        owner = true;
                        mark(record, index, MARK_OWNER_NAME);
                    } else if (length == DESCRIPTOR.length && (classFile[position + 3] == '(')
                            & (classFile[position + 4] == ')') & (classFile[position + 5] == 'J')) {
                        // & rather than &&: one branch for the three bytes. Which byte differs, in names such as
                        // "[[J", is a pattern the JIT would otherwise learn, and recompile this loop on meeting another.
                        descriptor = true;
                        mark(record, index, MARK_DESCRIPTOR);
                    } else if (length >= TIME_OWNER_MIN_LENGTH && length <= TIME_OWNER_MAX_LENGTH
                            && isTimeOwner(classFile, position + 3, length)) {
                        timeOwner = true;
                        mark(record, index, MARK_TIME_OWNER);
                    } else if (clocks.isOwner(classFile, position + 3, length)) {
                        clockOwner = true;
                        mark(record, index, MARK_CLOCK_OWNER);
                    }
                    size += length;
                } else if (size == 0) {
                    throw unknownTag(classFile, tag, index, position);
                } else if (size == ConstantPool.WIDE_ENTRY_SIZE) {
                    // Long and Double take two slots; the second is recorded as no entry.
                    index++;
                }
                position += size;
            }
            if (position > classFile.length) {
                throw new ClassFileException("truncated class file: the constant pool runs to byte " + position
                        + " of " + classFile.length);
            }
            if (record != null) {
                record.endAt(position);
            }
            return (method && owner || clockOwner) && descriptor || timeOwner;
        } catch (ArrayIndexOutOfBoundsException pastTheEnd) {
            throw new ClassFileException("truncated class file: the constant pool runs past byte "
                    + classFile.length);
        }
    }

    /**
     * In a class file of the newest known format or older, a tag of no kind is a malformed class; in a newer one, it
     * is most likely the kind of constant that format added.
     */
    private static ClassFileException unknownTag(byte[] classFile, int tag, int index, int position) {
        int major = (classFile[6] & 0xff) << 8 | classFile[7] & 0xff;
        if (major > NEWEST_KNOWN_MAJOR_VERSION) {
            return new NewerFormatException(major, tag, index);
        }
        return new ClassFileException("unknown constant pool tag " + tag + " at entry " + index + " (byte " + position
                + ")");
    }

    private static void mark(ConstantPool record, int index, byte mark) {
        if (record != null) {
            record.markName(index, mark);
        }
    }

    /**
     * Whether the Utf8 text at {@code start} is one of {@link #TIME_OWNERS}; the caller has checked its length. Two
     * bytes of the package's name turn away the names of java/lang and java/util, which have these lengths too.
     */
    private static boolean isTimeOwner(byte[] classFile, int start, int length) {
        if (start + length > classFile.length || classFile[start + TIME_PACKAGE_T] != 't'
                || classFile[start + TIME_PACKAGE.length - 1] != '/') {
            return false;
        }
        for (byte[] owner : TIME_OWNERS) {
            if (owner.length == length && regionEquals(classFile, start, owner)) {
                return true;
            }
        }
        return false;
    }

    /** Compares the last byte first: names of the same length mostly share a prefix, such as {@code java/}. */
    private static boolean regionEquals(byte[] classFile, int start, byte[] expected) {
        int last = start + expected.length - 1;
        return last < classFile.length && classFile[last] == expected[expected.length - 1]
                && Arrays.equals(classFile, start, last, expected, 0, expected.length - 1);
    }

    /** The constant pool of a class whose pool {@link #scan} can walk, recorded. */
    static ConstantPool constantPool(ClassFileCursor in) {
        return constantPool(in, ClockMethods.NONE);
    }

    /** The same, with the names of the clock methods' owners marked. */
    private static ConstantPool constantPool(ClassFileCursor in, ClockMethods clocks) {
        ConstantPool pool = new ConstantPool(in, in.u2(8));
        scan(in.bytes(), pool, clocks);
        return pool;
    }

    private byte[] redirect(ClassFileCursor in, boolean cachedInstants) {
        ConstantPool pool = constantPool(in, clocks);
        Redirects redirects = redirects(pool, cachedInstants, clocks);
        if (redirects.count == 0) {
            return null;
        }
        // The method bodies are skipped, but the layout after the pool is still checked to its end: a truncated class
        // is refused.
        int interfacesAt = pool.end() + 6;
        int end = in.skipAttributes(in.skipMembers(in.skipMembers(interfacesAt + 2 + 2 * in.u2(interfacesAt))));
        in.require(end, 0);
        return patch(in.bytes(), pool, redirects);
    }

    /**
     * The uses of redirected methods in a class file that {@link #rewrite} redirects, method by method: what the
     * rewrite changed in it, whichever rewriter made it (this one, or the native class filter's, which makes the same
     * bytes).
     *
     * @param cachedInstants as given to {@link #rewrite}
     * @param clocks as the rewriter was given them
     * @return the methods that use them, in class-file order; empty when none does
     * @throws ClassFileException when a method body cannot be read with certainty
     */
    public static List<MethodCallSites> countSites(byte[] classFile, boolean cachedInstants, ClockMethods clocks) {
        ClassFileCursor in = new ClassFileCursor(classFile);
        ConstantPool pool = constantPool(in, clocks);
        int count = pool.count();
        boolean[] redirected = new boolean[count];
        Redirects redirects = redirects(pool, cachedInstants, clocks);
        for (int n = 0; n < redirects.count; n++) {
            redirected[redirects.methodrefs[n]] = true;
        }
        boolean[] handle = new boolean[count];
        for (int index = 1; index < count; index++) {
            if (pool.tag(index) == ConstantPool.TAG_METHOD_HANDLE) {
                handle[index] = redirected[pool.checkedIndex(in.u2(pool.offset(index) + 2))];
            }
        }
        return CallSiteCounter.count(in, pool, redirected, handle);
    }

    /**
     * In a class where {@code cachedInstants} does not apply, its uses (call sites and method references) of the
     * java.time methods that only {@code cachedInstants} redirects: the reads of instants the rewrite leaves direct
     * because the cache would change their resolution. Reads method bodies, like {@link #countSites}.
     *
     * @param usesRedirected the uses that {@code countSites(classFile, false, clocks)} finds, which the caller has
     *     counted already (0 for a class the rewrite left as it was)
     * @throws ClassFileException when the class cannot be read with certainty
     */
    public static int instantReadsLeft(byte[] classFile, int usesRedirected, ClockMethods clocks) {
        if (!contains(classFile, TIME_PACKAGE)) {
            return 0;
        }
        return uses(countSites(classFile, true, clocks)) - usesRedirected;
    }

    private static int uses(List<MethodCallSites> methods) {
        int uses = 0;
        for (MethodCallSites method : methods) {
            uses += method.callSites() + method.methodReferences();
        }
        return uses;
    }

    /** The Methodrefs a rewrite re-points, in pool order, and the method each goes to. */
    private static final class Redirects {
        final int[] methodrefs;
        /** Per redirect, the target's name where it differs from the method's own, else null. */
        final String[] renamedTo;
        int count;

        Redirects(int capacity) {
            methodrefs = new int[capacity];
            renamedTo = new String[capacity];
        }
    }

    /**
     * The Methodrefs to {@code java/lang/System.currentTimeMillis:()J} and, where the pool names their owners, to the
     * redirected java.time methods and to the clock methods in force, in pool order; every index followed is checked.
     */
    private static Redirects redirects(ConstantPool pool, boolean cachedInstants, ClockMethods clocks) {
        int[] clock = pool.methodrefsMarked(MARK_OWNER_NAME, MARK_METHOD_NAME, MARK_DESCRIPTOR);
        // InstantSource.system() is an interface's static method.
        int[] time = pool.hasMarked(MARK_TIME_OWNER) ? pool.methodrefsOwnedBy(MARK_TIME_OWNER, true) : new int[0];
        int[] own = pool.hasMarked(MARK_CLOCK_OWNER) ? pool.methodrefsOwnedBy(MARK_CLOCK_OWNER, false) : new int[0];
        // The three lists are disjoint, as their owners' marks differ; by slot, the cached clock's method each goes to.
        String[] targets = new String[pool.count()];
        for (int methodref : clock) {
            targets[methodref] = CLOCK_METHOD_NAME;
        }
        for (int methodref : time) {
            targets[methodref] = timeTarget(pool, methodref, cachedInstants);
        }
        boolean[] checked = null;
        for (int methodref : own) {
            ClockMethod method = clockMethodOf(pool, methodref, clocks);
            if (method != null) {
                targets[methodref] = CLOCK_METHOD_NAME;
                if (!method.knownStatic()) {
                    checked = checked == null ? new boolean[targets.length] : checked;
                    checked[methodref] = true;
                }
            }
        }
        if (checked != null) {
            boolean[] staticOnly = checked.clone();
            StaticUses.keepStaticOnly(pool.cursor(), pool, staticOnly);
            for (int methodref = 1; methodref < targets.length; methodref++) {
                targets[methodref] = checked[methodref] && !staticOnly[methodref] ? null : targets[methodref];
            }
        }
        Redirects found = new Redirects(clock.length + time.length + own.length);
        for (int methodref = 1; methodref < targets.length; methodref++) {
            String target = targets[methodref];
            if (target != null) {
                boolean sameName = pool.utf8Equals(pool.indexIn(pool.indexIn(methodref, 3), 1), ascii(target));
                found.renamedTo[found.count] = sameName ? null : target;
                found.methodrefs[found.count++] = methodref;
            }
        }
        return found;
    }

    /** The cached clock's method a Methodref owned by a java.time class goes to, or null. */
    private static String timeTarget(ConstantPool pool, int methodref, boolean cachedInstants) {
        int[] named = ownerNameAndDescriptor(pool, methodref);
        if (named == null) {
            return null;
        }
        for (RedirectedMethod redirected : RedirectedMethod.ALL) {
            String target = redirected.target(cachedInstants);
            if (target != null && pool.utf8Equals(named[0], ascii(redirected.owner()))
                    && pool.utf8Equals(named[1], ascii(redirected.name()))
                    && pool.utf8Equals(named[2], ascii(redirected.descriptor()))) {
                return target;
            }
        }
        return null;
    }

    /** The clock method in force a Methodref names, or null. */
    private static ClockMethod clockMethodOf(ConstantPool pool, int methodref, ClockMethods clocks) {
        int[] named = ownerNameAndDescriptor(pool, methodref);
        if (named == null) {
            return null;
        }
        List<ClockMethod> methods = clocks.methods();
        for (int i = 0; i < methods.size(); i++) {
            ClockMethod method = methods.get(i);
            if (pool.utf8Equals(named[0], method.ownerBytes()) && pool.utf8Equals(named[1], method.nameBytes())
                    && pool.utf8Equals(named[2], DESCRIPTOR)) {
                return clocks.withdrawn(i) ? null : method;
            }
        }
        return null;
    }

    /**
     * The entries a Methodref's class name, method name and descriptor are at, each index checked; null where its
     * NameAndType index names another kind of entry.
     */
    private static int[] ownerNameAndDescriptor(ConstantPool pool, int methodref) {
        int nameAndType = pool.indexIn(methodref, 3);
        if (pool.tag(nameAndType) != ConstantPool.TAG_NAME_AND_TYPE) {
            return null;
        }
        int owner = pool.indexIn(pool.indexIn(methodref, 1), 1);
        return new int[] {owner, pool.indexIn(nameAndType, 1), pool.indexIn(nameAndType, 3)};
    }

    /**
     * Appends the target class, then for each redirect to a method of another name, in pool order, that name (once
     * per name) and a NameAndType of it with the original descriptor; re-points the Methodrefs at them.
     */
    private byte[] patch(byte[] original, ConstantPool pool, Redirects redirects) {
        int count = pool.count();
        ByteArrayOutputStream added = new ByteArrayOutputStream();
        appendUtf8(added, targetInternalName);
        added.write(ConstantPool.TAG_CLASS);
        appendU2(added, count);
        int next = count + 2;
        int targetClassIndex = count + 1;
        int[] nameAndTypes = new int[redirects.count];
        Map<String, Integer> names = new HashMap<>();
        for (int n = 0; n < redirects.count; n++) {
            String renamedTo = redirects.renamedTo[n];
            if (renamedTo == null) {
                continue;
            }
            Integer nameIndex = names.get(renamedTo);
            if (nameIndex == null) {
                nameIndex = next++;
                names.put(renamedTo, nameIndex);
                appendUtf8(added, ascii(renamedTo));
            }
            added.write(ConstantPool.TAG_NAME_AND_TYPE);
            appendU2(added, nameIndex);
            appendU2(added, pool.indexIn(pool.indexIn(redirects.methodrefs[n], 3), 3));
            nameAndTypes[n] = next++;
        }
        if (next > 0xFFFF) {
            throw new ClassFileException("constant pool is full (" + count + " entries), no room for the clock class");
        }
        int end = pool.end();
        byte[] entries = added.toByteArray();
        byte[] patched = new byte[original.length + entries.length];
        System.arraycopy(original, 0, patched, 0, end);
        System.arraycopy(entries, 0, patched, end, entries.length);
        System.arraycopy(original, end, patched, end + entries.length, original.length - end);
        putU2(patched, 8, next);
        for (int n = 0; n < redirects.count; n++) {
            int at = pool.offset(redirects.methodrefs[n]);
            // The target is a class: an InterfaceMethodref to an interface's static method becomes a Methodref.
            patched[at] = ConstantPool.TAG_METHODREF;
            putU2(patched, at + 1, targetClassIndex);
            if (nameAndTypes[n] != 0) {
                putU2(patched, at + 3, nameAndTypes[n]);
            }
        }
        return patched;
    }

    private static void appendUtf8(ByteArrayOutputStream out, byte[] ascii) {
        out.write(ConstantPool.TAG_UTF8);
        appendU2(out, ascii.length);
        out.write(ascii, 0, ascii.length);
    }

    private static void appendU2(ByteArrayOutputStream out, int value) {
        out.write(value >>> 8);
        out.write(value);
    }

    /** The java.time owners of {@link RedirectedMethod#ALL}, once each, shortest first. */
    private static byte[][] timeOwners() {
        Set<String> owners = new TreeSet<>(Comparator.comparingInt(String::length).thenComparing(owner -> owner));
        for (RedirectedMethod redirected : RedirectedMethod.ALL) {
            if (redirected.owner().startsWith(TIME_PACKAGE_NAME)) {
                owners.add(redirected.owner());
            }
        }
        byte[][] encoded = new byte[owners.size()][];
        int n = 0;
        for (String owner : owners) {
            encoded[n++] = ascii(owner);
        }
        return encoded;
    }

    static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int start = 0; start <= haystack.length - needle.length; start++) {
            for (int i = 0; i < needle.length; i++) {
                if (haystack[start + i] != needle[i]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    static void putU2(byte[] bytes, int position, int value) {
        bytes[position] = (byte) (value >>> 8);
        bytes[position + 1] = (byte) value;
    }

    static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
