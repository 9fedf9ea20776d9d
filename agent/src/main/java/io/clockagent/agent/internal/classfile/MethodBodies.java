package io.clockagent.agent.internal.classfile;

/**
 * Steps over a class file's interfaces and fields to its methods, and hands the code of each to a visitor, every
 * length checked against the file: what {@link CallSiteCounter} and {@link StaticUses} read method bodies through.
 */
final class MethodBodies {

    static final String CODE_ATTRIBUTE_NAME = "Code";
    private static final byte[] CODE_ATTRIBUTE = CallSiteRewriter.ascii(CODE_ATTRIBUTE_NAME);

    /** What reads one method's code. */
    interface CodeVisitor {
        /**
         * @param methodPosition where the method's entry in the methods table starts
         * @param codeStart where its code starts, in the class file
         */
        void code(int methodPosition, int codeStart, int codeLength);
    }

    private MethodBodies() {
    }

    /**
     * @return where the methods table ends: the class's attributes
     * @throws ClassFileException when the layout cannot be read with certainty
     */
    static int visit(ClassFileCursor in, ConstantPool pool, CodeVisitor visitor) {
        int position = pool.end() + 6;
        position += 2 + 2 * in.u2(position);
        position = in.skipMembers(position);
        int methods = in.u2(position);
        position += 2;
        for (int method = 0; method < methods; method++) {
            int methodPosition = position;
            int attributes = in.u2(position + 6);
            position += 8;
            for (int attribute = 0; attribute < attributes; attribute++) {
                int length = in.s4Length(position + 2);
                if (pool.utf8Equals(in.u2(position), CODE_ATTRIBUTE)) {
                    int codeLength = in.s4Length(position + 10);
                    in.require(position + 14, codeLength);
                    visitor.code(methodPosition, position + 14, codeLength);
                }
                position += 6 + length;
            }
        }
        return position;
    }
}
