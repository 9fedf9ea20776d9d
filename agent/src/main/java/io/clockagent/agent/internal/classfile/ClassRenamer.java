package io.clockagent.agent.internal.classfile;

import java.nio.charset.StandardCharsets;

/**
 * Renames a class the agent defines in {@code java.lang}, or a class such a class refers to, in its class file: every
 * constant-pool {@code Utf8} entry that is the old internal name, and every {@code L<old name>;} inside one (the
 * descriptors and signatures of fields and methods), is written again with the new name and its new length. Nothing
 * outside the constant pool refers to a name but by index, so the rest of the file is kept byte for byte. A mention of
 * the old name in any other form (an inner class's name, a string that holds it) is refused rather than missed.
 */
public final class ClassRenamer {

    /** The largest text a Utf8 entry's u2 length can hold. */
    private static final int MAX_UTF8_LENGTH = 0xFFFF;
    private static final int POOL_COUNT_AT = 8;
    private static final int POOL_AT = 10;
    private static final int UTF8_HEADER_SIZE = 3;

    private ClassRenamer() {
    }

    /** @throws IllegalStateException if the class does not name {@code from} so, which no build should produce */
    public static byte[] rename(byte[] classFile, String fromInternalName, String toInternalName) {
        // ISO-8859-1 maps each byte to one char and back, so every entry left alone survives byte for byte.
        String text = new String(classFile, StandardCharsets.ISO_8859_1);
        String fromDescriptor = "L" + fromInternalName + ";";
        String toDescriptor = "L" + toInternalName + ";";
        StringBuilder renamed = new StringBuilder(text.length() + 256).append(text, 0, POOL_AT);
        boolean named = false;
        int position = POOL_AT;
        int count = u2(text, POOL_COUNT_AT);
        for (int index = 1; index < count; index++) {
            int tag = text.charAt(position);
            int size = ConstantPool.ENTRY_SIZES[tag];
            if (size == 0) {
                throw new IllegalStateException("cannot rename " + fromInternalName + ": constant-pool entry " + index
                        + " has tag " + tag + ", which no class file has");
            }
            if (tag == ConstantPool.TAG_UTF8) {
                int length = u2(text, position + 1);
                String entry = text.substring(position + UTF8_HEADER_SIZE, position + UTF8_HEADER_SIZE + length);
                String written = entry.equals(fromInternalName) ? toInternalName
                        : entry.replace(fromDescriptor, toDescriptor);
                named |= !written.equals(entry);
                renamed.append(utf8Entry(written, fromInternalName));
                position += UTF8_HEADER_SIZE + length;
            } else {
                renamed.append(text, position, position + size);
                position += size;
                index += size == ConstantPool.WIDE_ENTRY_SIZE ? 1 : 0;
            }
        }
        if (!named) {
            throw new IllegalStateException("cannot rename " + fromInternalName + ": the class file does not name it");
        }
        String result = renamed.append(text, position, text.length()).toString();
        if (result.contains(fromInternalName)) {
            throw new IllegalStateException("cannot rename " + fromInternalName
                    + ": the class file mentions it in a form the renamer does not handle");
        }
        return result.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static int u2(String text, int at) {
        return text.charAt(at) << 8 | text.charAt(at + 1);
    }

    /** A Utf8 constant as it sits in a class file: tag, u2 length, then the text, as bytes. */
    private static String utf8Entry(String bytes, String renaming) {
        if (bytes.length() > MAX_UTF8_LENGTH) {
            throw new IllegalStateException("cannot rename " + renaming + ": a constant would grow past "
                    + MAX_UTF8_LENGTH + " bytes");
        }
        return "" + (char) ConstantPool.TAG_UTF8 + (char) (bytes.length() >>> 8) + (char) (bytes.length() & 0xff)
                + bytes;
    }
}
