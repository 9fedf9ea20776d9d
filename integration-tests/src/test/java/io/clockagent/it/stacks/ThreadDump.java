package io.clockagent.it.stacks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdk;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The names of a running JVM's Java threads, as {@code jcmd PID Thread.print} of its own JDK dumps them: what an
 * operator sees, independent of what the service says of itself.
 */
final class ThreadDump {

    /** Holds the jcmd launcher, which a runtime made with jlink may lack. */
    private static final String JCMD_MODULE = "jdk.jcmd";
    /**
     * A Java thread's header line: {@code "NAME" #ID daemon prio=5 ...}, with {@code [TID]} after the id from JDK 19 on;
     * the JVM's own threads have no {@code #ID}.
     */
    private static final Pattern JAVA_THREAD = Pattern.compile("^\"(.*)\" #\\d+ .*");

    private ThreadDump() {
    }

    /** The thread names, in the dump's order; empty, with a printed notice, where the JDK has no jcmd. */
    static Optional<List<String>> javaThreadNames(Jdk jdk, Path runDirectory, long pid) {
        if (!jdk.hasModule(JCMD_MODULE)) {
            System.out.println("NOTICE: the JDK " + jdk.featureVersion() + " at " + jdk.home() + " has no "
                    + JCMD_MODULE + "; its thread dump is SKIPPED, the service's own list of its threads is checked"
                    + " alone.");
            return Optional.empty();
        }
        ForkResult dump = new ForkedJvm(jdk, runDirectory).runTool("jcmd", Long.toString(pid), "Thread.print");
        assertEquals(0, dump.exitStatus(), dump.describe());
        List<String> names = new ArrayList<>();
        for (String line : dump.stdout()) {
            Matcher thread = JAVA_THREAD.matcher(line);
            if (thread.matches()) {
                names.add(thread.group(1));
            }
        }
        assertFalse(names.isEmpty(), "no thread in the dump\n" + dump.describe());
        return Optional.of(names);
    }
}
