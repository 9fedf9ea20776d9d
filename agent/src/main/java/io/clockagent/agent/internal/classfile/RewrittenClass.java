package io.clockagent.agent.internal.classfile;

import java.util.List;

/** A rewritten class, by name, with what was redirected in it method by method. Immutable. */
public final class RewrittenClass {

    private final String className;
    private final List<MethodCallSites> methods;

    /**
     * @param className the binary name, such as {@code com.acme.Service}
     * @param methods the methods that read the clock, in class-file order ({@link CallSiteRewriter#countSites})
     */
    RewrittenClass(String className, List<MethodCallSites> methods) {
        this.className = className;
        this.methods = methods;
    }

    /**
     * What a rewrite redirected in a class, counted in its original bytes.
     *
     * @param cachedInstants as the rewrite was given it
     * @param clocks as the rewriter was given them
     * @throws ClassFileException when a method body cannot be read with certainty
     */
    public static RewrittenClass counted(String className, byte[] original, boolean cachedInstants,
            ClockMethods clocks) {
        return new RewrittenClass(className, CallSiteRewriter.countSites(original, cachedInstants, clocks));
    }

    public String className() {
        return className;
    }

    public List<MethodCallSites> methods() {
        return methods;
    }

    /** {@code invokestatic} instructions redirected. */
    public int callSites() {
        int callSites = 0;
        for (MethodCallSites method : methods) {
            callSites += method.callSites();
        }
        return callSites;
    }

    /** Method references ({@code System::currentTimeMillis} via invokedynamic, or an {@code ldc} method handle). */
    public int methodReferences() {
        int methodReferences = 0;
        for (MethodCallSites method : methods) {
            methodReferences += method.methodReferences();
        }
        return methodReferences;
    }
}
