package io.clockagent.agent.internal.diagnostics;

import io.clockagent.agent.internal.classfile.CallSiteRewriter;
import java.util.List;
import java.util.stream.Collectors;

/** What the agent was tested on and which class files it reads, as {@code --version} says it. */
public final class Compatibility {

    /** The feature releases of the JDKs whose JVMs the integration tests run the agent jar in. */
    static final List<Integer> TESTED_JDK_FEATURES = List.of(11, 17, 21, 25);

    private Compatibility() {
    }

    public static String testedOn() {
        return "tested on: JDK " + TESTED_JDK_FEATURES.stream().map(String::valueOf).collect(Collectors.joining(", "));
    }

    public static String classFilesRead() {
        int newest = CallSiteRewriter.NEWEST_KNOWN_MAJOR_VERSION;
        return "class files read: versions " + CallSiteRewriter.MIN_MAJOR_VERSION + " (Java 1.1) to " + newest
                + " (Java " + CallSiteRewriter.NEWEST_KNOWN_JAVA_RELEASE + "), and newer ones whose constant-pool"
                + " tags are all known to version " + newest;
    }
}
