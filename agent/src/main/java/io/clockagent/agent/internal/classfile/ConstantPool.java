package io.clockagent.agent.internal.classfile;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.Arrays;

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
    static final int TAG_INTERFACE_METHODREF = 11;
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
    /** The slots of the Methodref and InterfaceMethodref entries, in pool order: the first {@link #methodrefCount}. */
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
        if (tag == TAG_METHODREF || tag == TAG_INTERFACE_METHODREF) {
            methodrefs[methodrefCount++] = index;
        }
    }

    void markName(int index, byte mark) {
        nameMarks[index] = mark;
    }

    void endAt(int position) {
        offsets[0] = position;
    }

    ClassFileCursor cursor() {
        return in;
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

    /**
     * The Methodrefs whose class name, method name and descriptor are Utf8 entries the walk marked so, in pool order.
     * Every index it follows is checked, and a Methodref whose method name is not marked is read no further. It reads
     * the entries without bounds checks of their own, as the walk has shown that every entry lies inside the class
     * file, and with few calls: it runs for the few classes that are rewritten, mostly before the JIT compiles it,
     * where a call costs more than the read it makes.
     */
    int[] methodrefsMarked(byte ownerMark, byte nameMark, byte descriptorMark) {
        byte[] bytes = in.bytes();
        int[] found = new int[methodrefCount];
        int foundCount = 0;
        for (int n = 0; n < methodrefCount; n++) {
            int at = offsets[methodrefs[n]];
            if (bytes[at] != TAG_METHODREF) {
                continue;
            }
            int nameAndTypeAt = offsets[indexAt(bytes, at + 3)];
            // Most Methodrefs name another method: the method name's mark turns them away before their class is read.
            if (bytes[nameAndTypeAt] != TAG_NAME_AND_TYPE || nameMarks[indexAt(bytes, nameAndTypeAt + 1)] != nameMark) {
                continue;
            }
            int ownerAt = offsets[indexAt(bytes, at + 1)];
            if (bytes[ownerAt] == TAG_CLASS && nameMarks[indexAt(bytes, ownerAt + 1)] == ownerMark
                    && nameMarks[indexAt(bytes, nameAndTypeAt + 3)] == descriptorMark) {
                found[foundCount++] = methodrefs[n];
            }
        }
        return Arrays.copyOf(found, foundCount);
    }

    /** Whether the walk marked any Utf8 entry so. */
    boolean hasMarked(byte mark) {
        for (byte marked : nameMarks) {
            if (marked == mark) {
                return true;
            }
        }
        return false;
    }

    /**
     * The Methodrefs, and where {@code interfacesToo} the InterfaceMethodrefs, whose class name is a Utf8 entry the
     * walk marked {@code ownerMark}, in pool order, each index followed checked; for the caller to look at their names
     * and descriptors.
     */
    int[] methodrefsOwnedBy(byte ownerMark, boolean interfacesToo) {
        byte[] bytes = in.bytes();
        int[] found = new int[methodrefCount];
        int foundCount = 0;
        for (int n = 0; n < methodrefCount; n++) {
            if (!interfacesToo && bytes[offsets[methodrefs[n]]] != TAG_METHODREF) {
                continue;
            }
            int ownerAt = offsets[indexAt(bytes, offsets[methodrefs[n]] + 1)];
            if (bytes[ownerAt] == TAG_CLASS && nameMarks[indexAt(bytes, ownerAt + 1)] == ownerMark) {
                found[foundCount++] = methodrefs[n];
            }
        }
        return Arrays.copyOf(found, foundCount);
    }

    /** The index that entry {@code index} holds {@code offset} bytes after its tag, checked to name a usable entry. */
    int indexIn(int index, int offset) {
        return indexAt(in.bytes(), offsets[index] + offset);
    }

    /** The index held at {@code position}, inside an entry, checked to name a usable entry. */
    private int indexAt(byte[] bytes, int position) {
        return checkedIndex((bytes[position] & 0xff) << 8 | bytes[position + 1] & 0xff);
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
        int at = utf8At(index);
        int length = in.u2(at + 1);
        in.require(at + 1, 2 + length);
        // readUTF expects exactly the class file's layout: a u2 length, then modified UTF-8.
        try (DataInputStream data = new DataInputStream(new ByteArrayInputStream(in.bytes(), at + 1, 2 + length))) {
            return data.readUTF();
        } catch (IOException malformed) {
            throw new ClassFileException("constant pool entry " + index + " is not valid modified UTF-8");
        }
    }

    boolean utf8Equals(int index, byte[] expected) {
        return in.utf8Equals(utf8At(index), expected);
    }

    /** Where the Utf8 entry an index read from the class file names starts, checked to be one. */
    private int utf8At(int index) {
        if (tag(checkedIndex(index)) != TAG_UTF8) {
            throw new ClassFileException("constant pool entry " + index + " should be a name but has tag "
                    + tag(index));
        }
        return offsets[index];
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
}
