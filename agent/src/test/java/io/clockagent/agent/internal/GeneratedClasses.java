package io.clockagent.agent.internal;

import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.ConstantDynamic;
import net.bytebuddy.jar.asm.Handle;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/** Class files that javac at --release 17 cannot produce, written with the ASM that Byte Buddy bundles. */
final class GeneratedClasses {

    static final String CLOCK_OWNER = "java/lang/System";

    private GeneratedClasses() {
    }

    /** A class of the given major version whose static {@code now()J} calls {@code System.currentTimeMillis()}. */
    static byte[] callingClock(String internalName, int majorVersion) {
        ClassWriter writer = new ClassWriter(0);
        writer.visit(majorVersion, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, internalName, null, "java/lang/Object", null);
        MethodVisitor now = writer.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "now", "()J", null, null);
        now.visitCode();
        now.visitMethodInsn(Opcodes.INVOKESTATIC, CLOCK_OWNER, "currentTimeMillis", "()J", false);
        now.visitInsn(Opcodes.LRETURN);
        now.visitMaxs(2, 0);
        now.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }

    /** A class whose {@code now()J} loads {@code System::currentTimeMillis} with {@code ldc} and invokes it. */
    static byte[] loadingClockHandle(String internalName) {
        ClassWriter writer = new ClassWriter(0);
        writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, internalName, null, "java/lang/Object", null);
        MethodVisitor now = writer.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "now", "()J", null, null);
        now.visitCode();
        now.visitLdcInsn(new Handle(Opcodes.H_INVOKESTATIC, CLOCK_OWNER, "currentTimeMillis", "()J", false));
        now.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/invoke/MethodHandle", "invokeExact", "()J", false);
        now.visitInsn(Opcodes.LRETURN);
        now.visitMaxs(2, 0);
        now.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }

    /**
     * A class whose {@code now()J} loads, with {@code ldc2_w}, a long dynamic constant that
     * {@code ConstantBootstraps.invoke} computes by calling {@code System::currentTimeMillis}.
     */
    static byte[] loadingClockDynamicConstant(String internalName) {
        ClassWriter writer = new ClassWriter(0);
        writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, internalName, null, "java/lang/Object", null);
        MethodVisitor now = writer.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "now", "()J", null, null);
        now.visitCode();
        Handle invoke = new Handle(Opcodes.H_INVOKESTATIC, "java/lang/invoke/ConstantBootstraps", "invoke",
                "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/Class;"
                        + "Ljava/lang/invoke/MethodHandle;[Ljava/lang/Object;)Ljava/lang/Object;", false);
        now.visitLdcInsn(new ConstantDynamic("startMillis", "J", invoke,
                new Handle(Opcodes.H_INVOKESTATIC, CLOCK_OWNER, "currentTimeMillis", "()J", false)));
        now.visitInsn(Opcodes.LRETURN);
        now.visitMaxs(2, 0);
        now.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }

    /** A class with a clock call and a constant pool filled to its limit, leaving no room for two more entries. */
    static byte[] withFullConstantPool(String internalName) {
        ClassWriter writer = new ClassWriter(0);
        writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, internalName, null, "java/lang/Object", null);
        MethodVisitor now = writer.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "now", "()J", null, null);
        now.visitCode();
        now.visitMethodInsn(Opcodes.INVOKESTATIC, CLOCK_OWNER, "currentTimeMillis", "()J", false);
        now.visitInsn(Opcodes.LRETURN);
        now.visitMaxs(2, 0);
        now.visitEnd();
        for (int filler = 0; writer.newUTF8("filler" + filler) < 0xFFFE - 1; filler++) {
            // Each call adds one constant; the loop stops when the pool is one short of its 65535 limit.
        }
        writer.visitEnd();
        return writer.toByteArray();
    }

    /** A class of the given version that never mentions the clock. */
    static byte[] withoutClock(String internalName, int majorVersion) {
        ClassWriter writer = new ClassWriter(0);
        writer.visit(majorVersion, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, internalName, null, "java/lang/Object", null);
        writer.visitEnd();
        return writer.toByteArray();
    }
}
