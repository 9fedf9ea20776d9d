package io.clockagent.agent.internal;

/** A class file after rewriting, with what was redirected in it. */
final class RewrittenClass {

    private final byte[] bytes;
    private final int callSites;
    private final int methodReferences;

    RewrittenClass(byte[] bytes, int callSites, int methodReferences) {
        this.bytes = bytes;
        this.callSites = callSites;
        this.methodReferences = methodReferences;
    }

    byte[] bytes() {
        return bytes;
    }

    /** {@code invokestatic} instructions redirected. */
    int callSites() {
        return callSites;
    }

    /** Method references ({@code System::currentTimeMillis} via invokedynamic, or an {@code ldc} method handle). */
    int methodReferences() {
        return methodReferences;
    }
}
