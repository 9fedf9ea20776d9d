package io.clockagent.agent.internal.classfile;

/**
 * Which of some Methodrefs a class uses otherwise than statically: an {@code invokevirtual}, {@code invokespecial} or
 * {@code invokeinterface} of one, or a method handle of another kind than {@code REF_invokeStatic}. A use of the
 * service's own clock methods ({@code clocks}) goes to the cached clock's static method only where every use is
 * static: one that names an instance method would otherwise fail to link. Reads method bodies and never changes
 * them; the C rewriter mirrors it check for check.
 */
final class StaticUses {

    static final int OP_INVOKEVIRTUAL = 0xb6;
    static final int OP_INVOKESPECIAL = 0xb7;
    static final int OP_INVOKEINTERFACE = 0xb9;
    static final int REF_INVOKE_STATIC = 6;

    private StaticUses() {
    }

    /**
     * Clears in {@code candidates} each Methodref the class uses otherwise than statically.
     *
     * @param candidates by slot, the Methodrefs asked about
     * @throws ClassFileException when a method body cannot be read with certainty
     */
    static void keepStaticOnly(ClassFileCursor in, ConstantPool pool, boolean[] candidates) {
        for (int index = 1; index < candidates.length; index++) {
            if (pool.tag(index) == ConstantPool.TAG_METHOD_HANDLE) {
                int at = pool.offset(index);
                int referenced = in.u2(at + 2);
                if (referenced < candidates.length && candidates[referenced] && in.u1(at + 1) != REF_INVOKE_STATIC) {
                    candidates[referenced] = false;
                }
            }
        }
        MethodBodies.visit(in, pool, (method, start, length) -> clearNonStatic(in, start, length, candidates));
    }

    private static void clearNonStatic(ClassFileCursor in, int start, int length, boolean[] candidates) {
        int pc = 0;
        while (pc < length) {
            int opcode = in.u1(start + pc);
            if (opcode == OP_INVOKEVIRTUAL || opcode == OP_INVOKESPECIAL || opcode == OP_INVOKEINTERFACE) {
                int index = in.u2(start + pc + 1);
                if (index < candidates.length) {
                    candidates[index] = false;
                }
            }
            pc += Bytecode.instructionLength(in, start, pc);
        }
        if (pc != length) {
            throw new ClassFileException("last instruction runs past the end of the code");
        }
    }
}
