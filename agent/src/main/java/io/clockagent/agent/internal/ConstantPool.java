package io.clockagent.agent.internal;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;

/** Where each constant-pool entry of one class file starts, and its tag. Built only for classes that need rewriting. */
final class ConstantPool {

    static final int TAG_UTF8 = 1;
    static final int TAG_CLASS = 7;
    static final int TAG_METHODREF = 10;
    static final int TAG_NAME_AND_TYPE = 12;
    static final int TAG_METHOD_HANDLE = 15;
    static final int TAG_DYNAMIC = 17;
    static final int TAG_INVOKE_DYNAMIC = 18;
    /** Marks the unusable slot after a Long or Double entry. */
    private static final byte TAG_UNUSABLE = 0;

    private final ClassFileCursor in;
    private final int[] offsets;
    private final byte[] tags;
    private final int end;

    private ConstantPool(ClassFileCursor in, int[] offsets, byte[] tags, int end) {
        this.in = in;
        this.offsets = offsets;
        this.tags = tags;
        this.end = end;
    }

    static ConstantPool read(ClassFileCursor in, int count) {
        int[] offsets = new int[count];
        byte[] tags = new byte[count];
        int position = 10;
        for (int index = 1; index < count; index++) {
            int tag = in.u1(position);
            offsets[index] = position;
            tags[index] = (byte) tag;
            if (tag == TAG_UTF8) {
                position += 3 + in.u2(position + 1);
            } else {
                position += constantSize(tag, index, position);
                if (isWide(tag) && ++index < count) {
                    tags[index] = TAG_UNUSABLE;
                }
            }
        }
        in.require(position, 0);
        return new ConstantPool(in, offsets, tags, position);
    }

    int count() {
        return offsets.length;
    }

    /** The byte just past the last entry, where new entries go. */
    int end() {
        return end;
    }

    int tag(int index) {
        return tags[index];
    }

    int offset(int index) {
        return offsets[index];
    }

    /** An index read from the class file, checked to name a usable entry. */
    int checkedIndex(int index) {
        if (index < 1 || index >= offsets.length || tags[index] == TAG_UNUSABLE) {
            throw new ClassFileException("constant pool index " + index + " is not an entry (pool has "
                    + offsets.length + " slots)");
        }
        return index;
    }

    /** The text of a Utf8 entry, decoded from the class file's modified UTF-8. */
    String utf8(int index) {
        if (tags[checkedIndex(index)] != TAG_UTF8) {
            throw new ClassFileException("constant pool entry " + index + " should be a name but has tag "
                    + tags[index]);
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
        if (tags[checkedIndex(index)] != TAG_UTF8) {
            throw new ClassFileException("constant pool entry " + index + " should be a name but has tag "
                    + tags[index]);
        }
        return in.utf8Equals(offsets[index], expected);
    }

    /**
     * Size in bytes of each kind of constant-pool entry, tag included, indexed by tag; 0 for Utf8, whose size is in
     * the entry, and for tags that do not exist. A table rather than a switch: the scan that runs for every class in
     * scope reads it inline, without a call, which is most of its cost before the JIT has compiled it.
     */
    static final byte[] ENTRY_SIZES = {0, 0, 0, 5, 5, 9, 9, 3, 3, 5, 5, 5, 5, 0, 0, 4, 3, 5, 5, 3, 3};

    /** Size in bytes of a constant-pool entry other than Utf8, tag included. */
    static int constantSize(int tag, int index, int position) {
        int size = tag >= 0 && tag < ENTRY_SIZES.length ? ENTRY_SIZES[tag] : 0;
        if (size == 0) {
            throw unknownTag(tag, index, position);
        }
        return size;
    }

    static ClassFileException unknownTag(int tag, int index, int position) {
        return new ClassFileException("unknown constant pool tag " + tag + " at entry " + index + " (byte " + position
                + ")");
    }

    /** Long and Double entries take two constant-pool slots. */
    static boolean isWide(int tag) {
        return tag == 5 || tag == 6;
    }
}
