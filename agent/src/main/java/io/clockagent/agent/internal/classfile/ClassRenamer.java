package io.clockagent.agent.internal.classfile;

import java.nio.charset.StandardCharsets;

/**
 * Renames a class the agent defines in {@code java.lang}, or a class such a class refers to, in its class file: every
 * constant-pool {@code Utf8} entry that is the old internal name, and every {@code L<old name>;} inside one (the
 * descriptors and signatures of fields and methods), is written again with the new name and its new length; the
 * rewriter's walk of the pool finds them. Nothing outside the constant pool refers to a name but by index, so the
 * rest of the file is kept byte for byte. A mention of
 * the old name in any other form (an inner class's name, a string that holds it) is refused rather than missed.
 */
public final class ClassRenamer {

    /** The largest text a Utf8 entry's u2 length can hold. */
    private static final int MAX_UTF8_LENGTH = 0xFFFF;
    private static final int UTF8_HEADER_SIZE = 3;

    private ClassRenamer() {
    }

    /** @throws IllegalStateException if the class does not name {@code from} so, which no build should produce */
    public static byte[] rename(byte[] classFile, String fromInternalName, String toInternalName) {
        ClassFileCursor in = new ClassFileCursor(classFile);
        ConstantPool pool = CallSiteRewriter.constantPool(in);
        // ISO-8859-1 maps each byte to one char and back, so every entry left alone survives byte for byte.
        String text = new String(classFile, StandardCharsets.ISO_8859_1);
        String fromDescriptor = "L" + fromInternalName + ";";
        String toDescriptor = "L" + toInternalName + ";";
        StringBuilder renamed = new StringBuilder(text.length() + 256);
        int copiedTo = 0;
        for (int index = 1; index < pool.count(); index++) {
            if (pool.tag(index) != ConstantPool.TAG_UTF8) {
                continue;
            }
            int at = pool.offset(index);
            int textAt = at + UTF8_HEADER_SIZE;
            String entry = text.substring(textAt, textAt + in.u2(at + 1));
            String written = entry.equals(fromInternalName) ? toInternalName
                    : entry.replace(fromDescriptor, toDescriptor);
            if (!written.equals(entry)) {
                renamed.append(text, copiedTo, at).append(utf8Entry(written, fromInternalName));
                copiedTo = textAt + entry.length();
            }
        }
        if (copiedTo == 0) {
            throw new IllegalStateException("cannot rename " + fromInternalName + ": the class file does not name it");
        }
        String result = renamed.append(text, copiedTo, text.length()).toString();
        if (result.contains(fromInternalName)) {
            throw new IllegalStateException("cannot rename " + fromInternalName
                    + ": the class file mentions it in a form the renamer does not handle");
        }
        return result.getBytes(StandardCharsets.ISO_8859_1);
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
