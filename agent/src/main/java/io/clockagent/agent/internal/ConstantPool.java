package io.clockagent.agent.internal;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;

/**
 * Where each constant-pool entry of one class file starts, its tag, where its {@code Methodref}s are and which of
 * its names the rewriter looks for. Built only for classes that need rewriting, filled in by the walk of
 * {@link CallSiteRewriter#constantPool}, so that the rewrite itself touches the few entries that matter: it runs for
 * a few classes in a hundred, mostly before the JIT has compiled it.
 */
final class ConstantPool {

    static final int TAG_UTF8 = 1;
    static final int TAG_CLASS = 7;
    static final int TAG_METHODREF = 10;
    static final int TAG_NAME_AND_TYPE = 12;
    static final int TAG_METHOD_HANDLE = 15;
    static final int TAG_DYNAMIC = 17;
    static final int TAG_INVOKE_DYNAMIC = 18;
    /** What {@link #tag} says of the unusable slot after a Long or Double entry. */
    private static final int TAG_UNUSABLE = 0;
    /** Long and Double, the only entries of this size, take two slots. */
    static final int WIDE_ENTRY_SIZE = 9;

    private final ClassFileCursor in;
    /** Where each entry's tag is; 0 for an unusable slot; in slot 0, which no entry uses, the end of the pool. */
    private final int[] offsets;
    /** The slots of the Methodref entries, in pool order: the first {@link #methodrefCount}. */
    private final int[] methodrefs;
    private int methodrefCount;
    /** A mark per slot, set by the walk on the Utf8 entries whose text it was asked to recognise; else 0. */
    private final byte[] nameMarks;

    /** An empty pool of {@code count} slots, for the walk to fill in. */
    ConstantPool(ClassFileCursor in, int count) {
        this.in = in;
        this.offsets = new int[count];
        this.methodrefs = new int[count];
        this.nameMarks = new byte[count];
    }

    void entryAt(int index, int position, int tag) {
        offsets[index] = position;
        if (tag == TAG_METHODREF) {
            methodrefs[methodrefCount++] = index;
        }
    }

    void markName(int index, byte mark) {
        nameMarks[index] = mark;
    }

    void endAt(int position) {
        offsets[0] = position;
    }

    int count() {
        return offsets.length;
    }

    /** The byte just past the last entry, where new entries go. */
    int end() {
        return offsets[0];
    }

    int tag(int index) {
        int at = offsets[index];
        return at == 0 ? TAG_UNUSABLE : in.bytes()[at] & 0xff;
    }

    int offset(int index) {
        return offsets[index];
    }

    int methodrefCount() {
        return methodrefCount;
    }

    /** The slot of the {@code n}th Methodref entry. */
    int methodref(int n) {
        return methodrefs[n];
    }

    /**
     * The index that an entry holds {@code at} bytes past its tag, checked to name a usable entry. Reads without
     * bounds checks of its own: the walk has shown that every entry lies inside the class file.
     */
    int reference(int index, int at) {
        int position = offsets[index] + at;
        byte[] bytes = in.bytes();
        return checkedIndex((bytes[position] & 0xff) << 8 | bytes[position + 1] & 0xff);
    }

    /** The mark the walk set on a Utf8 entry, 0 for any other entry; {@code index} must be checked. */
    byte nameMark(int index) {
        return nameMarks[index];
    }

    /** An index read from the class file, checked to name a usable entry. */
    int checkedIndex(int index) {
        if (index < 1 || index >= offsets.length || offsets[index] == 0) {
            throw new ClassFileException("constant pool index " + index + " is not an entry (pool has "
                    + offsets.length + " slots)");
        }
        return index;
    }

    /** The text of a Utf8 entry, decoded from the class file's modified UTF-8. */
    String utf8(int index) {
        if (tag(checkedIndex(index)) != TAG_UTF8) {
            throw new ClassFileException("constant pool entry " + index + " should be a name but has tag "
                    + tag(index));
        }
        int length = in.u2(offsets[index] + 1);
        in.require(offsets[index] + 1, 2 + length);
        // readUTF expects exactly the class file's layout: a u2 length, then modified UTF-8.
        try (DataInputStream data = new DataInputStream(
                new ByteArrayInputStream(in.bytes(), offsets[index] + 1, 2 + length))) {
            return data.readUTF();
        } catch (IOException malformed) {
            throw new ClassFileException("constant pool entry " + index + " is not valid modified UTF-8");
        }
    }

    boolean utf8Equals(int index, byte[] expected) {
        if (tag(checkedIndex(index)) != TAG_UTF8) {
            throw new ClassFileException("constant pool entry " + index + " should be a name but has tag "
                    + tag(index));
        }
        return in.utf8Equals(offsets[index], expected);
    }

    /**
     * Size in bytes of a constant-pool entry, tag included, for every byte value a tag can have: 3 for Utf8, which
     * adds the length its entry holds, and 0 for the values that are no tag.
     */
    static final byte[] ENTRY_SIZES = new byte[256];

    static {
        byte[] known = {0, 3, 0, 5, 5, 9, 9, 3, 3, 5, 5, 5, 5, 0, 0, 4, 3, 5, 5, 3, 3};
        System.arraycopy(known, 0, ENTRY_SIZES, 0, known.length);
    }

    static ClassFileException unknownTag(int tag, int index, int position) {
        return new ClassFileException("unknown constant pool tag " + tag + " at entry " + index + " (byte " + position
                + ")");
    }
}
