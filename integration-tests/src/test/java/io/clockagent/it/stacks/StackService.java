package io.clockagent.it.stacks;

import io.clockagent.it.support.AgentEntry;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdk;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * A stack service of the {@code stacks} modules, as the tests start it.
 *
 * @param module the Maven module, whose jar {@link BuildOutputs#stackJar} finds
 * @param oldestJdk the oldest Java release the stack runs on
 * @param libraryPackages the packages of its framework and libraries, as the report names classes
 */
record StackService(String module, int oldestJdk, List<String> libraryPackages) {

    /** Aborts the calling test, reported as skipped with a printed notice, on a JDK the stack does not run on. */
    void requireRunsOn(Jdk jdk) {
        if (jdk.featureVersion() < oldestJdk) {
            String notice = "NOTICE: " + module + " needs Java " + oldestJdk + " or later; its JDK "
                    + jdk.featureVersion() + " run is SKIPPED, not passed.";
            System.out.println(notice);
            Assumptions.abort(notice);
        }
    }

    /**
     * Starts the service with the agent through the entry given, on the options given (never {@code include}), or
     * without it for a null entry.
     *
     * @param jvmOptions what the service needs besides, such as a directory for its logs
     */
    StackRun start(Jdk jdk, Path runDirectory, AgentEntry entry, String agentOptions, String... jvmOptions) {
        ForkedJvm jvm = new ForkedJvm(jdk, runDirectory).option(jvmOptions);
        if (entry != null) {
            entry.addTo(jvm, agentOptions);
        }
        return new StackRun(jvm.startJar(BuildOutputs.stackJar(module)));
    }

    /** Whether the report's binary class name lies in one of the framework's or libraries' packages. */
    boolean inLibrary(String className) {
        return libraryPackages.stream().anyMatch(className::startsWith);
    }
}
