package io.clockagent.it.support;

import java.util.function.Consumer;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Handle;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Clock classes that javac at {@code --release 17} cannot emit, written with the ASM bundled in Byte Buddy. Each is
 * a public class with one method, {@code public static long now()}, reading {@code System.currentTimeMillis()}, or
 * the nanoseconds of {@code Instant.now()}.
 */
public final class GeneratedClocks {

    private static final String SYSTEM = "java/lang/System";

    private GeneratedClocks() {
    }

    /** Calls the clock with {@code invokestatic}, in a class file of the given major version (52 is Java 8). */
    public static byte[] withClassFileVersion(String binaryName, int majorVersion) {
        return clockClass(binaryName, majorVersion, now ->
                now.visitMethodInsn(Opcodes.INVOKESTATIC, SYSTEM, "currentTimeMillis", "()J", false));
    }

    /**
     * Loads {@code System::currentTimeMillis} as a method-handle constant with {@code ldc} and invokes it; javac
     * compiles method references to {@code invokedynamic} instead, so only generated code has this shape.
     */
    public static byte[] loadingClockHandle(String binaryName) {
        return clockClass(binaryName, Opcodes.V11, now -> {
            now.visitLdcInsn(new Handle(Opcodes.H_INVOKESTATIC, SYSTEM, "currentTimeMillis", "()J", false));
            now.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/invoke/MethodHandle", "invokeExact", "()J", false);
        });
    }

    /** Loads {@code Instant::now} with {@code ldc} and invokes it; {@code now()} returns the instant's nano-of-second. */
    public static byte[] loadingInstantHandle(String binaryName) {
        return clockClass(binaryName, Opcodes.V11, now -> {
            now.visitLdcInsn(new Handle(Opcodes.H_INVOKESTATIC, "java/time/Instant", "now", "()Ljava/time/Instant;",
                    false));
            now.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/invoke/MethodHandle", "invokeExact",
                    "()Ljava/time/Instant;", false);
            now.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/time/Instant", "getNano", "()I", false);
            now.visitInsn(Opcodes.I2L);
        });
    }

    /**
     * {@code InstantSource.system()}, an interface's static method of Java 17, which javac at {@code --release 11}
     * cannot name: {@code called()} returns it through an {@code invokestatic} of an InterfaceMethodref, and
     * {@code referenced()} through an {@code ldc} of its method handle, invoked; each typed {@code Object}.
     */
    public static byte[] instantSources(String binaryName) {
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL | Opcodes.ACC_SUPER,
                binaryName.replace('.', '/'), null, "java/lang/Object", null);
        String source = "java/time/InstantSource";
        String descriptor = "()Ljava/time/InstantSource;";
        MethodVisitor called = writer.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "called",
                "()Ljava/lang/Object;", null, null);
        called.visitCode();
        called.visitMethodInsn(Opcodes.INVOKESTATIC, source, "system", descriptor, true);
        called.visitInsn(Opcodes.ARETURN);
        called.visitMaxs(0, 0);
        called.visitEnd();
        MethodVisitor referenced = writer.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "referenced",
                "()Ljava/lang/Object;", null, null);
        referenced.visitCode();
        referenced.visitLdcInsn(new Handle(Opcodes.H_INVOKESTATIC, source, "system", descriptor, true));
        referenced.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/invoke/MethodHandle", "invokeExact", descriptor,
                false);
        referenced.visitInsn(Opcodes.ARETURN);
        referenced.visitMaxs(0, 0);
        referenced.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }

    /** Straight-line bodies only: with no branches, no class file version needs a stack map table. */
    private static byte[] clockClass(String binaryName, int majorVersion, Consumer<MethodVisitor> pushMillis) {
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        writer.visit(majorVersion, Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL | Opcodes.ACC_SUPER,
                binaryName.replace('.', '/'), null, "java/lang/Object", null);
        MethodVisitor now = writer.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "now", "()J", null, null);
        now.visitCode();
        pushMillis.accept(now);
        now.visitInsn(Opcodes.LRETURN);
        now.visitMaxs(0, 0);
        now.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }
}
