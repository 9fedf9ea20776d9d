package io.clockagent.agent.internal;

import java.util.List;

/** A class file after rewriting, with what was redirected in it. Immutable once handed out. */
final class RewrittenClass {

    private final byte[] bytes;
    private final List<MethodCallSites> methods;

    /**
     * @param bytes the rewritten class file
     * @param methods the methods that read the clock, in class-file order; null when the rewriter did not count them
     */
    RewrittenClass(byte[] bytes, List<MethodCallSites> methods) {
        this.bytes = bytes;
        this.methods = methods;
    }

    byte[] bytes() {
        return bytes;
    }

    /** The methods that read the clock, in class-file order; null unless {@link #counted()}. */
    List<MethodCallSites> methods() {
        return methods;
    }

    boolean counted() {
        return methods != null;
    }

    /** {@code invokestatic} instructions redirected; only for a class whose sites were {@link #counted()}. */
    int callSites() {
        int callSites = 0;
        for (MethodCallSites method : methods) {
            callSites += method.callSites();
        }
        return callSites;
    }

    /**
     * Method references ({@code System::currentTimeMillis} via invokedynamic, or an {@code ldc} method handle); only
     * for a class whose sites were {@link #counted()}.
     */
    int methodReferences() {
        int methodReferences = 0;
        for (MethodCallSites method : methods) {
            methodReferences += method.methodReferences();
        }
        return methodReferences;
    }
}
