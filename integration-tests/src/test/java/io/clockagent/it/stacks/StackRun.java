package io.clockagent.it.stacks;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.LiveJvm;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One forked JVM running a stack service, spoken to through the service's console on stdin (see
 * {@code io.clockagent.stacks.console.StackConsole}) and over 127.0.0.1 on the port it prints.
 */
public final class StackRun implements AutoCloseable {

    private static final String NANOS = "(\\d+\\.\\d+)";
    private static final Pattern PROBE = Pattern.compile("probe app read=" + NANOS + " direct=" + NANOS
            + " library read=" + NANOS + " direct=" + NANOS);

    private final LiveJvm jvm;
    private final int port;

    public StackRun(LiveJvm jvm) {
        this.jvm = jvm;
        this.port = Integer.parseInt(jvm.awaitLine("listening ").substring("listening ".length()));
    }

    int port() {
        return port;
    }

    /** The service's process id, for the JDK's tools. */
    long pid() {
        return jvm.pid();
    }

    /** The service's own counts, by name. */
    Map<String, Long> stats() {
        Map<String, Long> stats = new LinkedHashMap<>();
        for (String pair : jvm.ask("stats", "stats ").substring("stats ".length()).split(" ")) {
            String[] nameAndValue = pair.split("=", 2);
            stats.put(nameAndValue[0], Long.parseLong(nameAndValue[1]));
        }
        return stats;
    }

    /**
     * The clock probe, in nanoseconds per read: {@code [app read, direct call, library read, direct call]}, each pair
     * measured side by side.
     */
    public double[] probe() {
        String line = jvm.ask("probe", "probe ");
        Matcher probe = PROBE.matcher(line);
        assertTrue(probe.matches(), line + "\n" + jvm.describe());
        return new double[] {Double.parseDouble(probe.group(1)), Double.parseDouble(probe.group(2)),
            Double.parseDouble(probe.group(3)), Double.parseDouble(probe.group(4))};
    }

    /** Closes the console, which stops the service, and waits for its exit. */
    public ForkResult finish() {
        return jvm.finish();
    }

    public String describe() {
        return jvm.describe();
    }

    @Override
    public void close() {
        jvm.close();
    }
}
