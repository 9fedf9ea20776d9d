package io.clockagent.agent.internal;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Renames a class by rewriting its name, and descriptors of its type, in the constant pool. Enough for a class that
 * has no nested classes, like the cached clock; any other mention of the old name is refused rather than missed.
 */
final class ClassRenamer {

    private ClassRenamer() {
    }

    static byte[] rename(byte[] classFile, String fromInternalName, String toInternalName) {
        ClassFileCursor in = new ClassFileCursor(classFile);
        ConstantPool pool = ConstantPool.read(in, in.u2(8));
        ByteArrayOutputStream out = new ByteArrayOutputStream(classFile.length + 256);
        int copiedUpTo = 0;
        boolean renamed = false;
        for (int index = 1; index < pool.count(); index++) {
            if (pool.tag(index) != ConstantPool.TAG_UTF8) {
                continue;
            }
            int at = pool.offset(index);
            int length = in.u2(at + 1);
            // ISO-8859-1 maps each byte to one char and back, so other entries survive byte for byte.
            String text = new String(classFile, at + 3, length, StandardCharsets.ISO_8859_1);
            String replaced = text.equals(fromInternalName) ? toInternalName
                    : text.replace("L" + fromInternalName + ";", "L" + toInternalName + ";");
            if (replaced.equals(text)) {
                if (text.contains(fromInternalName)) {
                    throw new ClassFileException("cannot rename " + fromInternalName + ": constant " + index
                            + " mentions it in a form the renamer does not handle: " + text);
                }
                continue;
            }
            byte[] bytes = replaced.getBytes(StandardCharsets.ISO_8859_1);
            out.write(classFile, copiedUpTo, at - copiedUpTo);
            out.write(ConstantPool.TAG_UTF8);
            out.write(bytes.length >>> 8);
            out.write(bytes.length);
            out.write(bytes, 0, bytes.length);
            copiedUpTo = at + 3 + length;
            renamed = true;
        }
        if (!renamed) {
            throw new ClassFileException("cannot rename " + fromInternalName + ": the class file does not name it");
        }
        out.write(classFile, copiedUpTo, classFile.length - copiedUpTo);
        return out.toByteArray();
    }
}
