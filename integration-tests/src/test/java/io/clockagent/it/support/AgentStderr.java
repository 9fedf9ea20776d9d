package io.clockagent.it.support;

import java.util.regex.Pattern;

/** The lines clock-agent writes to stderr, as the README promises them. */
public final class AgentStderr {

    public static final String ALL_CLASSES = "(all non-JDK classes)";
    public static final String NO_EXCLUDES = "(none)";
    public static final String OFF_PREFIX = "clock-agent: off, the service runs without it: ";
    public static final String STRICT_STOP_PREFIX = "clock-agent: bad option, stopping the JVM (strict=true): ";

    private AgentStderr() {
    }

    /**
     * The banner for default tick and wait settings. The clock source is the host's (tsc, hpet, xen, kvm-clock, or
     * a note where it cannot be read), so any non-empty text is accepted there.
     */
    public static Pattern banner(String includes, String excludes) {
        return Pattern.compile(Pattern.quote("clock-agent: " + BuildOutputs.agentVersion()
                + " caching System.currentTimeMillis(): tick=1ms wait=park include=" + includes
                + " exclude=" + excludes + " clocksource=") + "\\S.*");
    }

    /** The line {@code verbose=true} adds for one rewritten class. */
    public static String rewrote(String binaryName, int callSites, int methodReferences) {
        return "clock-agent: rewrote " + binaryName + ": " + callSites + " call sites, " + methodReferences
                + " method references";
    }
}
