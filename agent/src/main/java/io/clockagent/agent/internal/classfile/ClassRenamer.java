package io.clockagent.agent.internal.classfile;

import java.nio.charset.StandardCharsets;

/**
 * Renames the cached clock class, which names itself in two constant-pool {@code Utf8} entries at most: its name,
 * and the descriptor of its type (which the debug information of its private constructor holds). Those whole entries
 * are replaced, with their lengths, and any other mention of the old name is refused rather than missed. Two whole
 * entries are all it changes, so it works on the bytes as text rather than through the rewriter's constant-pool
 * reader.
 */
public final class ClassRenamer {

    private ClassRenamer() {
    }

    /** @throws IllegalStateException if the class does not name itself exactly so, which no build should produce */
    public static byte[] rename(byte[] classFile, String fromInternalName, String toInternalName) {
        // ISO-8859-1 maps each byte to one char and back, so the rest of the class file survives byte for byte.
        String text = new String(classFile, StandardCharsets.ISO_8859_1);
        String renamed = replaceEntry(text, fromInternalName, toInternalName);
        if (renamed == null) {
            throw new IllegalStateException("cannot rename " + fromInternalName + ": the class file does not name it");
        }
        String descriptorRenamed = replaceEntry(renamed, "L" + fromInternalName + ";", "L" + toInternalName + ";");
        if (descriptorRenamed != null) {
            renamed = descriptorRenamed;
        }
        if (renamed.contains(fromInternalName)) {
            throw new IllegalStateException("cannot rename " + fromInternalName
                    + ": the class file mentions it in a form the renamer does not handle");
        }
        return renamed.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** @return the text with the Utf8 entry holding exactly {@code from} changed to hold {@code to}, or null if none */
    private static String replaceEntry(String classFile, String from, String to) {
        String fromEntry = utf8Entry(from);
        int at = classFile.indexOf(fromEntry);
        return at < 0 ? null : classFile.substring(0, at) + utf8Entry(to) + classFile.substring(at + fromEntry.length());
    }

    /** A Utf8 constant as it sits in a class file: tag, u2 length, then the (here ASCII) text. */
    private static String utf8Entry(String ascii) {
        return "" + (char) ConstantPool.TAG_UTF8 + (char) (ascii.length() >>> 8) + (char) (ascii.length() & 0xff)
                + ascii;
    }
}
