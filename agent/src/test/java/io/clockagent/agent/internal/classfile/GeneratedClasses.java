package io.clockagent.agent.internal.classfile;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.ConstantDynamic;
import net.bytebuddy.jar.asm.Handle;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Class files that javac at --release 17 cannot produce, written with the ASM that Byte Buddy bundles, or made by
 * patching javac's.
 */
public final class GeneratedClasses {

    public static final String CLOCK_OWNER = "java/lang/System";
    /**
     * The class file versions newer than the rewriter knows that the tests make, by patching the version of class files
     * of known versions: JDK 26 to 31's.
     */
    public static final List<Integer> NEWER_MAJOR_VERSIONS = IntStream.rangeClosed(
            CallSiteRewriter.NEWEST_KNOWN_MAJOR_VERSION + 1, 75).boxed().collect(Collectors.toList());
    private static final int MAJOR_VERSION_OFFSET = 6;
    private static final Handle CLOCK_HANDLE =
            new Handle(Opcodes.H_INVOKESTATIC, CLOCK_OWNER, "currentTimeMillis", "()J", false);

    private GeneratedClasses() {
    }

    /** A class of the given major version whose static {@code now()J} calls {@code System.currentTimeMillis()}. */
    public static byte[] callingClock(String internalName, int majorVersion) {
        return withNow(internalName, majorVersion, (writer, now) ->
                now.visitMethodInsn(Opcodes.INVOKESTATIC, CLOCK_OWNER, "currentTimeMillis", "()J", false));
    }

    /**
     * A class whose {@code now()J} returns the millis of {@code InstantSource.system()}, an interface's static method,
     * which it calls through an InterfaceMethodref.
     */
    public static byte[] callingInstantSource(String internalName) {
        return withNow(internalName, Opcodes.V17, (writer, now) -> {
            now.visitMethodInsn(Opcodes.INVOKESTATIC, "java/time/InstantSource", "system",
                    "()Ljava/time/InstantSource;", true);
            now.visitMethodInsn(Opcodes.INVOKEINTERFACE, "java/time/InstantSource", "millis", "()J", true);
        });
    }

    /** A class whose {@code now()J} returns what the static {@code owner.name()J} returns. */
    public static byte[] callingClockMethod(String internalName, String owner, String name) {
        return withNow(internalName, Opcodes.V17, (writer, now) ->
                now.visitMethodInsn(Opcodes.INVOKESTATIC, owner, name, "()J", false));
    }

    /**
     * A class of Java 5's format, which needs no stack maps, whose {@code now()J} steps through a {@code tableswitch}, a
     * {@code lookupswitch} and a {@code wide iinc} before it returns what the static {@code owner.name()J} returns.
     */
    public static byte[] callingClockMethodAfterSwitches(String internalName, String owner, String name) {
        ClassWriter writer = new ClassWriter(0);
        writer.visit(Opcodes.V1_5, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, internalName, null, "java/lang/Object", null);
        MethodVisitor now = writer.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "now", "()J", null, null);
        now.visitCode();
        Label done = new Label();
        Label one = new Label();
        // A local past 255, which only a wide instruction reaches, stored before it is incremented.
        now.visitInsn(Opcodes.ICONST_0);
        now.visitVarInsn(Opcodes.ISTORE, 300);
        now.visitInsn(Opcodes.ICONST_1);
        now.visitTableSwitchInsn(0, 2, done, one, one, one);
        now.visitLabel(one);
        now.visitInsn(Opcodes.ICONST_2);
        now.visitLookupSwitchInsn(done, new int[] {-7, 1_000_000}, new Label[] {done, done});
        now.visitLabel(done);
        now.visitIincInsn(300, 1);
        now.visitMethodInsn(Opcodes.INVOKESTATIC, owner, name, "()J", false);
        now.visitInsn(Opcodes.LRETURN);
        now.visitMaxs(2, 301);
        now.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }

    /** A class whose {@code now()J} calls {@code owner.name()J} with {@code invokevirtual}: an instance method. */
    public static byte[] invokingClockMethodVirtually(String internalName, String owner, String name) {
        return withNow(internalName, Opcodes.V17, (writer, now) -> {
            now.visitInsn(Opcodes.ACONST_NULL);
            now.visitMethodInsn(Opcodes.INVOKEVIRTUAL, owner, name, "()J", false);
        });
    }

    /** A class whose {@code now()J} loads a {@code REF_invokeVirtual} handle of {@code owner.name()J}. */
    public static byte[] loadingVirtualClockMethodHandle(String internalName, String owner, String name) {
        return withNow(internalName, Opcodes.V17, (writer, now) -> {
            now.visitLdcInsn(new Handle(Opcodes.H_INVOKEVIRTUAL, owner, name, "()J", false));
            now.visitInsn(Opcodes.POP);
            now.visitInsn(Opcodes.LCONST_0);
        });
    }

    /** A class whose {@code now()J} loads a method handle of the static {@code owner.name()J} and invokes it. */
    public static byte[] loadingClockMethodHandle(String internalName, String owner, String name) {
        return withNow(internalName, Opcodes.V17, (writer, now) -> {
            now.visitLdcInsn(new Handle(Opcodes.H_INVOKESTATIC, owner, name, "()J", false));
            now.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/invoke/MethodHandle", "invokeExact", "()J", false);
        });
    }

    /** A class whose {@code now()J} reads the clock through {@code Instant.now().toEpochMilli()} alone. */
    public static byte[] callingInstantNow(String internalName) {
        return withNow(internalName, Opcodes.V17, (writer, now) -> {
            now.visitMethodInsn(Opcodes.INVOKESTATIC, "java/time/Instant", "now", "()Ljava/time/Instant;", false);
            now.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/time/Instant", "toEpochMilli", "()J", false);
        });
    }

    /** A class whose {@code now()J} loads {@code System::currentTimeMillis} with {@code ldc} and invokes it. */
    public static byte[] loadingClockHandle(String internalName) {
        return withNow(internalName, Opcodes.V17, (writer, now) -> {
            now.visitLdcInsn(CLOCK_HANDLE);
            now.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/invoke/MethodHandle", "invokeExact", "()J", false);
        });
    }

    /**
     * A class whose {@code now()J} loads, with {@code ldc2_w}, a long dynamic constant that
     * {@code ConstantBootstraps.invoke} computes by calling {@code System::currentTimeMillis}.
     */
    public static byte[] loadingClockDynamicConstant(String internalName) {
        Handle invoke = new Handle(Opcodes.H_INVOKESTATIC, "java/lang/invoke/ConstantBootstraps", "invoke",
                "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/Class;"
                        + "Ljava/lang/invoke/MethodHandle;[Ljava/lang/Object;)Ljava/lang/Object;", false);
        return withNow(internalName, Opcodes.V17,
                (writer, now) -> now.visitLdcInsn(new ConstantDynamic("startMillis", "J", invoke, CLOCK_HANDLE)));
    }

    /** A class with a clock call and a constant pool filled to its limit, leaving no room for two more entries. */
    public static byte[] withFullConstantPool(String internalName) {
        return withNow(internalName, Opcodes.V17, (writer, now) -> {
            now.visitMethodInsn(Opcodes.INVOKESTATIC, CLOCK_OWNER, "currentTimeMillis", "()J", false);
            int filler = 0;
            // Each name adds one constant; stop one short of the pool's 65535-entry limit.
            while (writer.newUTF8("filler" + filler) < 0xFFFE - 1) {
                filler++;
            }
        });
    }

    /**
     * {@link #callingClock} at Java 17, with a second copy of each name the clock's Methodref uses, and of its Class
     * and NameAndType entries, appended to the pool; the Methodref points at the copies and the first copies go unused.
     * Legal, if no compiler writes it, and a reader that stops at the first matching name would miss the call.
     */
    public static byte[] callingClockThroughRepeatedNames(String internalName) {
        byte[] original = callingClock(internalName, Opcodes.V17);
        ConstantPool pool = CallSiteRewriter.constantPool(new ClassFileCursor(original));
        int count = pool.count();
        ByteArrayOutputStream added = new ByteArrayOutputStream();
        DataOutputStream entries = new DataOutputStream(added);
        try {
            entries.writeByte(ConstantPool.TAG_UTF8);
            entries.writeUTF(CLOCK_OWNER);
            entries.writeByte(ConstantPool.TAG_CLASS);
            entries.writeShort(count);
            entries.writeByte(ConstantPool.TAG_UTF8);
            entries.writeUTF("currentTimeMillis");
            entries.writeByte(ConstantPool.TAG_UTF8);
            entries.writeUTF("()J");
            entries.writeByte(ConstantPool.TAG_NAME_AND_TYPE);
            entries.writeShort(count + 2);
            entries.writeShort(count + 3);
        } catch (IOException impossible) {
            throw new UncheckedIOException(impossible);
        }
        byte[] repeated = withConstantsAppended(original, pool, added.toByteArray(), 5);
        for (int index = 1; index < count; index++) {
            if (pool.tag(index) == ConstantPool.TAG_METHODREF) {
                // The class's only Methodref: now() calls the clock and nothing else.
                CallSiteRewriter.putU2(repeated, pool.offset(index) + 1, count + 1);
                CallSiteRewriter.putU2(repeated, pool.offset(index) + 3, count + 4);
            }
        }
        return repeated;
    }

    /**
     * A class whose pool holds a Methodref to {@code System.currentTimeMillis()} that no method uses: {@code now()J}
     * returns a constant. Bytecode tools leave such entries behind when they remove a call.
     */
    public static byte[] withUnusedClockReference(String internalName) {
        return withNow(internalName, Opcodes.V17, (writer, now) -> {
            writer.newMethod(CLOCK_OWNER, "currentTimeMillis", "()J", false);
            now.visitInsn(Opcodes.LCONST_0);
        });
    }

    /** A copy of a class file with another major version, and nothing else changed. */
    public static byte[] withMajorVersion(byte[] classFile, int majorVersion) {
        byte[] patched = classFile.clone();
        CallSiteRewriter.putU2(patched, MAJOR_VERSION_OFFSET, majorVersion);
        return patched;
    }

    /**
     * A copy of a class file with one more constant at the end of its pool, where a newer format would add a new kind
     * of constant: a reader that stopped as soon as it had found the clock's names would never reach it. The two bytes
     * after the tag are a guess, as the size of a new kind of constant would be to the rewriter, which stops at the
     * tag.
     *
     * @param tag one that no class file up to Java 25's has
     */
    public static byte[] withUnknownConstant(byte[] classFile, int tag) {
        return withConstantsAppended(classFile, CallSiteRewriter.constantPool(new ClassFileCursor(classFile)),
                new byte[] {(byte) tag, 0, 1}, 1);
    }

    /** A copy of a class file with entries appended to its constant pool, which counts them. */
    private static byte[] withConstantsAppended(byte[] classFile, ConstantPool pool, byte[] entries, int entryCount) {
        int end = pool.end();
        byte[] extended = new byte[classFile.length + entries.length];
        System.arraycopy(classFile, 0, extended, 0, end);
        System.arraycopy(entries, 0, extended, end, entries.length);
        System.arraycopy(classFile, end, extended, end + entries.length, classFile.length - end);
        CallSiteRewriter.putU2(extended, 8, pool.count() + entryCount);
        return extended;
    }

    /** A class of the given version that never mentions the clock. */
    public static byte[] withoutClock(String internalName, int majorVersion) {
        ClassWriter writer = new ClassWriter(0);
        writer.visit(majorVersion, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, internalName, null, "java/lang/Object", null);
        writer.visitEnd();
        return writer.toByteArray();
    }

    /**
     * A class with one method, {@code public static long now()}, whose body leaves a long on the stack; the body may
     * also add constants through the class writer.
     */
    private static byte[] withNow(String internalName, int majorVersion, BiConsumer<ClassWriter, MethodVisitor> body) {
        ClassWriter writer = new ClassWriter(0);
        writer.visit(majorVersion, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, internalName, null, "java/lang/Object", null);
        MethodVisitor now = writer.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "now", "()J", null, null);
        now.visitCode();
        body.accept(writer, now);
        now.visitInsn(Opcodes.LRETURN);
        now.visitMaxs(2, 0);
        now.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }
}
