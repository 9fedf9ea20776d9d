package io.clockagent.agent.internal;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;

/** Where each constant-pool entry of one class file starts, and its tag. Built only for classes that need rewriting. */
final class ConstantPool {

    private static final int TAG_UTF8 = 1;
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
                position += CallSiteRewriter.constantSize(tag, index, position);
                if (CallSiteRewriter.isWide(tag) && ++index < count) {
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
}
