package io.clockagent.it.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.Handle;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * How a class file uses {@code currentTimeMillis()J}, read with ASM, counted per target: the JDK's
 * {@code java/lang/System} or the agent's {@code java/lang/ClockAgentCachedClock}.
 *
 * <p>Counted the way the agent reports them: a call site is an {@code invokestatic}; a method reference is an
 * {@code invokedynamic} with the method's handle among its bootstrap arguments, or an {@code ldc} of the handle.
 */
public record ClockReferences(int systemCallSites, int systemMethodReferences, int cachedCallSites,
        int cachedMethodReferences) {

    private static final String SYSTEM = "java/lang/System";
    private static final String CACHED_CLOCK = "java/lang/ClockAgentCachedClock";
    private static final String METHOD = "currentTimeMillis";
    private static final String DESCRIPTOR = "()J";

    public static ClockReferences in(byte[] classFile) {
        Counter counter = new Counter();
        new ClassReader(classFile).accept(counter, ClassReader.SKIP_FRAMES);
        return new ClockReferences(counter.systemCallSites, counter.systemMethodReferences, counter.cachedCallSites,
                counter.cachedMethodReferences);
    }

    /**
     * The names among {@code classes} whose bytes read the cached clock: those the agent rewrote. The clock class itself
     * is not among them, whose java.time methods read it too. Names may carry a loader's prefix ({@code boot/}).
     */
    public static List<String> rewrittenAmong(Map<String, byte[]> classes) {
        List<String> rewritten = new ArrayList<>();
        classes.forEach((name, bytes) -> {
            if (!name.endsWith(CACHED_CLOCK) && in(bytes).readsCachedClock()) {
                rewritten.add(name);
            }
        });
        return rewritten;
    }

    public boolean readsSystemClock() {
        return systemCallSites + systemMethodReferences > 0;
    }

    public boolean readsCachedClock() {
        return cachedCallSites + cachedMethodReferences > 0;
    }

    private static final class Counter extends ClassVisitor {

        int systemCallSites;
        int systemMethodReferences;
        int cachedCallSites;
        int cachedMethodReferences;

        Counter() {
            super(Opcodes.ASM9);
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                String[] exceptions) {
            return new MethodVisitor(Opcodes.ASM9) {
                @Override
                public void visitMethodInsn(int opcode, String owner, String method, String methodDescriptor,
                        boolean isInterface) {
                    if (opcode == Opcodes.INVOKESTATIC && METHOD.equals(method)
                            && DESCRIPTOR.equals(methodDescriptor)) {
                        countCallSite(owner);
                    }
                }

                @Override
                public void visitLdcInsn(Object constant) {
                    if (constant instanceof Handle) {
                        countMethodReference((Handle) constant);
                    }
                }

                @Override
                public void visitInvokeDynamicInsn(String method, String methodDescriptor, Handle bootstrap,
                        Object... bootstrapArguments) {
                    for (Object argument : bootstrapArguments) {
                        if (argument instanceof Handle && countMethodReference((Handle) argument)) {
                            return;
                        }
                    }
                }
            };
        }

        private void countCallSite(String owner) {
            if (SYSTEM.equals(owner)) {
                systemCallSites++;
            } else if (CACHED_CLOCK.equals(owner)) {
                cachedCallSites++;
            }
        }

        /** @return whether the handle refers to either clock's {@code currentTimeMillis()J} */
        private boolean countMethodReference(Handle handle) {
            if (!METHOD.equals(handle.getName()) || !DESCRIPTOR.equals(handle.getDesc())) {
                return false;
            }
            if (SYSTEM.equals(handle.getOwner())) {
                systemMethodReferences++;
                return true;
            }
            if (CACHED_CLOCK.equals(handle.getOwner())) {
                cachedMethodReferences++;
                return true;
            }
            return false;
        }
    }
}
