package io.clockagent.bench.stopwatch;

import java.lang.instrument.Instrumentation;

/**
 * An agent given twice around another one, {@code -javaagent:stopwatch.jar=start -javaagent:AGENT
 * -javaagent:stopwatch.jar=stop}: the JVM runs agents in command-line order, so the time between the two is what
 * AGENT costs before {@code main} on its own, from opening its jar to the end of its {@code premain}, without the
 * rest of the JVM's start, whose spread on a shared machine hides a millisecond in a whole run. Prints
 * {@value #LINE_PREFIX}NANOS to stderr. Stateless apart from the system property the two calls share.
 */
public final class PremainStopwatch {

    public static final String LINE_PREFIX = "premain stopwatch ns: ";
    private static final String STARTED_PROPERTY = "clockagent.bench.premainStopwatchStartedNanos";

    private PremainStopwatch() {
    }

    public static void premain(String option, Instrumentation instrumentation) {
        long nowNanos = System.nanoTime();
        if ("start".equals(option)) {
            System.setProperty(STARTED_PROPERTY, Long.toString(nowNanos));
        } else if ("stop".equals(option)) {
            System.err.println(LINE_PREFIX + (nowNanos - Long.parseLong(System.getProperty(STARTED_PROPERTY))));
        } else {
            throw new IllegalArgumentException("premain stopwatch: option '" + option + "'; valid: start, stop");
        }
    }
}
