package io.clockagent.agent.internal.classfile;

import java.util.ArrayList;
import java.util.List;

/**
 * Counts, method by method, the uses of redirected {@code Methodref}s in one class file: {@code invokestatic}
 * instructions, and method references ({@code ldc} of a method handle, or {@code invokedynamic} and dynamic
 * constants whose bootstrap arguments hold one). It reads method bodies and never changes them.
 */
final class CallSiteCounter {

    private static final byte[] BOOTSTRAP_METHODS_ATTRIBUTE = CallSiteRewriter.ascii("BootstrapMethods");

    private static final int OP_LDC = 0x12;
    private static final int OP_LDC_W = 0x13;
    private static final int OP_LDC2_W = 0x14;
    private static final int OP_INVOKESTATIC = 0xb8;
    private static final int OP_INVOKEDYNAMIC = 0xba;

    private CallSiteCounter() {
    }

    /**
     * @param redirected which constant-pool entries are redirected {@code Methodref}s
     * @param handle which constant-pool entries are method handles to them
     * @return the methods that use them, in class-file order; empty when none does
     */
    static List<MethodCallSites> count(ClassFileCursor in, ConstantPool pool, boolean[] redirected, boolean[] handle) {
        List<MethodTally> tallies = new ArrayList<>();
        int position = MethodBodies.visit(in, pool, (method, start, length) -> {
            // A method has one Code attribute; where a malformed one has more, they count as one method's.
            MethodTally last = tallies.isEmpty() ? null : tallies.get(tallies.size() - 1);
            MethodTally tally = last != null && last.position == method ? last : new MethodTally(method);
            scanCode(in, start, length, pool, redirected, handle, tally);
            if (tally != last && (tally.callSites > 0 || tally.methodReferences > 0 || tally.dynamicCount > 0)) {
                tallies.add(tally);
            }
        });
        boolean[] bootstrapMentionsHandle = new boolean[0];
        int attributes = in.u2(position);
        position += 2;
        for (int attribute = 0; attribute < attributes; attribute++) {
            int length = in.s4Length(position + 2);
            if (pool.utf8Equals(in.u2(position), BOOTSTRAP_METHODS_ATTRIBUTE)) {
                bootstrapMentionsHandle = bootstrapMentionsHandle(in, position + 6, pool, handle);
            }
            position += 6 + length;
        }
        in.require(position, 0);
        List<MethodCallSites> counted = new ArrayList<>();
        for (MethodTally tally : tallies) {
            for (int i = 0; i < tally.dynamicCount; i++) {
                int bootstrap = in.u2(pool.offset(tally.dynamicIndices[i]) + 1);
                if (bootstrap >= bootstrapMentionsHandle.length) {
                    throw new ClassFileException("constant " + tally.dynamicIndices[i] + " names bootstrap method "
                            + bootstrap + " of " + bootstrapMentionsHandle.length);
                }
                tally.methodReferences += bootstrapMentionsHandle[bootstrap] ? 1 : 0;
            }
            if (tally.callSites > 0 || tally.methodReferences > 0) {
                counted.add(new MethodCallSites(methodName(in, pool, tally.position), tally.callSites,
                        tally.methodReferences));
            }
        }
        return counted;
    }

    private static void scanCode(ClassFileCursor in, int start, int length, ConstantPool pool, boolean[] redirected,
            boolean[] handle, MethodTally tally) {
        int pc = 0;
        while (pc < length) {
            int opcode = in.u1(start + pc);
            switch (opcode) {
                case OP_INVOKESTATIC:
                    tally.callSites += redirected[pool.checkedIndex(in.u2(start + pc + 1))] ? 1 : 0;
                    break;
                case OP_LDC:
                    countConstantLoad(pool.checkedIndex(in.u1(start + pc + 1)), pool, handle, tally);
                    break;
                case OP_LDC_W:
                case OP_LDC2_W:
                    countConstantLoad(pool.checkedIndex(in.u2(start + pc + 1)), pool, handle, tally);
                    break;
                case OP_INVOKEDYNAMIC:
                    tally.addDynamic(pool.checkedIndex(in.u2(start + pc + 1)), pool, ConstantPool.TAG_INVOKE_DYNAMIC);
                    break;
                default:
                    break;
            }
            pc += Bytecode.instructionLength(in, start, pc);
        }
        if (pc != length) {
            throw new ClassFileException("last instruction runs past the end of the code");
        }
    }

    private static void countConstantLoad(int index, ConstantPool pool, boolean[] handle, MethodTally tally) {
        if (handle[index]) {
            tally.methodReferences++;
        } else if (pool.tag(index) == ConstantPool.TAG_DYNAMIC) {
            tally.addDynamic(index, pool, ConstantPool.TAG_DYNAMIC);
        }
    }

    /** For each bootstrap method, whether one of its static arguments is a redirected method handle. */
    private static boolean[] bootstrapMentionsHandle(ClassFileCursor in, int position, ConstantPool pool,
            boolean[] handle) {
        int bootstrapMethods = in.u2(position);
        position += 2;
        boolean[] mentions = new boolean[bootstrapMethods];
        for (int bootstrap = 0; bootstrap < bootstrapMethods; bootstrap++) {
            int arguments = in.u2(position + 2);
            position += 4;
            for (int argument = 0; argument < arguments; argument++) {
                mentions[bootstrap] |= handle[pool.checkedIndex(in.u2(position))];
                position += 2;
            }
        }
        return mentions;
    }

    /** The method's name and descriptor, such as {@code now()J}, decoded from modified UTF-8. */
    private static String methodName(ClassFileCursor in, ConstantPool pool, int methodPosition) {
        return pool.utf8(in.u2(methodPosition + 2)) + pool.utf8(in.u2(methodPosition + 4));
    }

    /** What one method uses, before its dynamic call sites are matched to their bootstrap methods. */
    private static final class MethodTally {
        final int position;
        int callSites;
        int methodReferences;
        int[] dynamicIndices = new int[0];
        int dynamicCount;

        MethodTally(int position) {
            this.position = position;
        }

        void addDynamic(int index, ConstantPool pool, int expectedTag) {
            if (pool.tag(index) != expectedTag) {
                throw new ClassFileException("constant " + index + " has tag " + pool.tag(index) + ", expected "
                        + expectedTag);
            }
            if (dynamicCount == dynamicIndices.length) {
                int[] grown = new int[Math.max(4, dynamicCount * 2)];
                System.arraycopy(dynamicIndices, 0, grown, 0, dynamicCount);
                dynamicIndices = grown;
            }
            dynamicIndices[dynamicCount++] = index;
        }
    }
}
