package io.clockagent.agent.internal.classfile;

import java.nio.charset.StandardCharsets;

/** What a class file's methods table declares, as the JVM will define it. */
public final class DeclaredMethods {

    private static final int ACC_STATIC = 0x0008;

    private DeclaredMethods() {
    }

    /**
     * Whether the class declares a static method of this name and descriptor {@code ()J}; true too where the class
     * file cannot be read with certainty, as then the JVM will refuse it, and nothing about its methods is known.
     */
    public static boolean declaresStaticClockMethod(byte[] classFile, String name) {
        try {
            ClassFileCursor in = new ClassFileCursor(classFile);
            ConstantPool pool = CallSiteRewriter.constantPool(in);
            byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
            byte[] descriptor = CallSiteRewriter.ascii(CallSiteRewriter.CLOCK_DESCRIPTOR);
            int position = pool.end() + 6;
            position = in.skipMembers(position + 2 + 2 * in.u2(position));
            int methods = in.u2(position);
            position += 2;
            for (int method = 0; method < methods; method++) {
                if ((in.u2(position) & ACC_STATIC) != 0 && pool.utf8Equals(in.u2(position + 2), nameBytes)
                        && pool.utf8Equals(in.u2(position + 4), descriptor)) {
                    return true;
                }
                position = in.skipAttributes(position + 6);
            }
            return false;
        } catch (ClassFileException unreadable) {
            return true;
        }
    }
}
