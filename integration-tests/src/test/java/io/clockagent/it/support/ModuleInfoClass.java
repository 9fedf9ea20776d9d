package io.clockagent.it.support;

import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.ModuleVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Writes {@code module-info.class} with ASM, so that classes compiled on the class path can be packaged as a named
 * module without a second compilation.
 */
public final class ModuleInfoClass {

    private ModuleInfoClass() {
    }

    /** A module that reads only {@code java.base}, exports nothing and contains the given packages. */
    public static byte[] readingOnlyJavaBase(String moduleName, String... packageBinaryNames) {
        ClassWriter writer = new ClassWriter(0);
        writer.visit(Opcodes.V11, Opcodes.ACC_MODULE, "module-info", null, null, null);
        ModuleVisitor module = writer.visitModule(moduleName, 0, null);
        module.visitRequire("java.base", Opcodes.ACC_MANDATED, null);
        for (String packageName : packageBinaryNames) {
            module.visitPackage(packageName.replace('.', '/'));
        }
        module.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }
}
