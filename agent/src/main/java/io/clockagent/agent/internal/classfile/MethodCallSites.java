package io.clockagent.agent.internal.classfile;

import java.util.Objects;

/** The uses of {@code System.currentTimeMillis()} in one method. Immutable; equal when all three parts are. */
public final class MethodCallSites {

    private final String method;
    private final int callSites;
    private final int methodReferences;

    /**
     * @param method name and descriptor, such as {@code now()J}
     * @param callSites {@code invokestatic} instructions
     * @param methodReferences {@code System::currentTimeMillis} references and {@code ldc} method handles
     */
    MethodCallSites(String method, int callSites, int methodReferences) {
        this.method = method;
        this.callSites = callSites;
        this.methodReferences = methodReferences;
    }

    public String method() {
        return method;
    }

    public int callSites() {
        return callSites;
    }

    public int methodReferences() {
        return methodReferences;
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof MethodCallSites)) {
            return false;
        }
        MethodCallSites that = (MethodCallSites) other;
        return method.equals(that.method) && callSites == that.callSites && methodReferences == that.methodReferences;
    }

    @Override
    public int hashCode() {
        return Objects.hash(method, callSites, methodReferences);
    }

    /** As in test failures: {@code now()J: 2 call sites, 0 method references}. */
    @Override
    public String toString() {
        return method + ": " + callSites + " call sites, " + methodReferences + " method references";
    }
}
