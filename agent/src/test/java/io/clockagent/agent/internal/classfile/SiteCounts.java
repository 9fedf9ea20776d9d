package io.clockagent.agent.internal.classfile;

import java.util.List;

/** Counted call sites with whatever names and counts a test needs, for the tests of the rooms that show them. */
public final class SiteCounts {

    private SiteCounts() {
    }

    public static MethodCallSites method(String method, int callSites, int methodReferences) {
        return new MethodCallSites(method, callSites, methodReferences);
    }

    public static RewrittenClass rewritten(String className, MethodCallSites... methods) {
        return new RewrittenClass(className, List.of(methods));
    }
}
