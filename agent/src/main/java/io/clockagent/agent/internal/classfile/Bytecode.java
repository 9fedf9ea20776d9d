package io.clockagent.agent.internal.classfile;

/** Instruction lengths of the JVM instruction set, enough to step through a method body. */
final class Bytecode {

    static final int OP_TABLESWITCH = 0xaa;
    static final int OP_LOOKUPSWITCH = 0xab;
    static final int OP_WIDE = 0xc4;
    static final int OP_IINC = 0x84;

    /**
     * Length of each fixed-size instruction; 0 for opcodes that are undefined or variable-sized. The C rewriter's too:
     * the build writes it into {@code class_file_format.h}.
     */
    static final byte[] FIXED_LENGTHS = new byte[256];

    static {
        fill(0x00, 0x0f, 1); // nop .. dconst_1
        fill(0x10, 0x10, 2); // bipush
        fill(0x11, 0x11, 3); // sipush
        fill(0x12, 0x12, 2); // ldc
        fill(0x13, 0x14, 3); // ldc_w, ldc2_w
        fill(0x15, 0x19, 2); // iload .. aload
        fill(0x1a, 0x35, 1); // iload_0 .. saload
        fill(0x36, 0x3a, 2); // istore .. astore
        fill(0x3b, 0x83, 1); // istore_0 .. lxor
        fill(0x84, 0x84, 3); // iinc
        fill(0x85, 0x98, 1); // i2l .. dcmpg
        fill(0x99, 0xa8, 3); // ifeq .. jsr
        fill(0xa9, 0xa9, 2); // ret
        fill(0xac, 0xb1, 1); // ireturn .. return
        fill(0xb2, 0xb8, 3); // getstatic .. invokestatic
        fill(0xb9, 0xba, 5); // invokeinterface, invokedynamic
        fill(0xbb, 0xbb, 3); // new
        fill(0xbc, 0xbc, 2); // newarray
        fill(0xbd, 0xbd, 3); // anewarray
        fill(0xbe, 0xbf, 1); // arraylength, athrow
        fill(0xc0, 0xc1, 3); // checkcast, instanceof
        fill(0xc2, 0xc3, 1); // monitorenter, monitorexit
        fill(0xc5, 0xc5, 4); // multianewarray
        fill(0xc6, 0xc7, 3); // ifnull, ifnonnull
        fill(0xc8, 0xc9, 5); // goto_w, jsr_w
    }

    private Bytecode() {
    }

    private static void fill(int firstOpcode, int lastOpcode, int length) {
        for (int opcode = firstOpcode; opcode <= lastOpcode; opcode++) {
            FIXED_LENGTHS[opcode] = (byte) length;
        }
    }

    /** Length of the instruction at {@code pc} in the code that starts at byte {@code codeStart}. */
    static int instructionLength(ClassFileCursor in, int codeStart, int pc) {
        int opcode = in.u1(codeStart + pc);
        int fixed = FIXED_LENGTHS[opcode];
        if (fixed != 0) {
            return fixed;
        }
        // Switch operands start at the next multiple of four, counted from the start of the code.
        int operands = (pc + 4) & ~3;
        switch (opcode) {
            case OP_TABLESWITCH: {
                long low = in.u4(codeStart + operands + 4);
                long high = in.u4(codeStart + operands + 8);
                return checkedLength(pc, operands + 12 + (high - low + 1) * 4);
            }
            case OP_LOOKUPSWITCH: {
                long pairs = in.u4(codeStart + operands + 4);
                return checkedLength(pc, operands + 8 + pairs * 8);
            }
            case OP_WIDE:
                return in.u1(codeStart + pc + 1) == OP_IINC ? 6 : 4;
            default:
                throw new ClassFileException("unknown opcode 0x" + Integer.toHexString(opcode) + " at pc " + pc);
        }
    }

    private static int checkedLength(int pc, long end) {
        if (end <= pc || end > Integer.MAX_VALUE) {
            throw new ClassFileException("switch at pc " + pc + " has a bad size");
        }
        return (int) (end - pc);
    }
}
