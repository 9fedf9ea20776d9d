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
     * An option's text as the agent's lines quote it (README, Options): whole up to 64 characters, else its first 64
     * and its length, so that a line stays short whatever the option's length.
     */
    public static String excerpt(String text) {
        return text.length() <= 64 ? text : text.substring(0, 64) + "... (" + text.length() + " characters)";
    }

    /** The one line of an agent that enabled=false from {@code source} turned off; no bad option's line. */
    public static String turnedOff(String source) {
        return "clock-agent: off (enabled=false from " + source + "); the service runs without it";
    }

    /** The banner for default tick and wait settings; any clock source is accepted, as in every banner here. */
    public static Pattern banner(String includes, String excludes) {
        return banner("tick=1ms wait=park include=" + includes + " exclude=" + excludes);
    }

    /** The banner for default tick and wait settings with {@link InspectorJar#JAVA_REWRITER}. */
    public static Pattern javaRewriterBanner(String includes, String excludes) {
        return banner("tick=1ms wait=park " + InspectorJar.JAVA_REWRITER + " include=" + includes + " exclude="
                + excludes);
    }

    /**
     * The banner for any settings, stated as the agent states them, such as
     * {@code tick=5ms wait=spin monotonic=true include=com.acme exclude=(none)}, followed by
     * {@code (options from ...)} when a source other than the {@code -javaagent} string was used.
     */
    public static Pattern banner(String settings) {
        return withClocksource("clock-agent: " + BuildOutputs.agentVersion() + " caching System.currentTimeMillis(): "
                + settings);
    }

    /** The banner of {@code dryRun=true}, which says that nothing is rewritten; settings as for {@link #banner(String)}. */
    public static Pattern dryRunBanner(String settings) {
        return withClocksource("clock-agent: " + BuildOutputs.agentVersion()
                + " finding System.currentTimeMillis() call sites, rewriting nothing: " + settings);
    }

    /** The clock source is the host's (tsc, hpet, xen, kvm-clock, or a note where it cannot be read): any text. */
    private static Pattern withClocksource(String bannerStart) {
        return Pattern.compile(Pattern.quote(bannerStart + " clocksource=") + "\\S.*");
    }

    /** The line {@code verbose=true} adds for one rewritten class. */
    public static String rewrote(String binaryName, int callSites, int methodReferences) {
        return "clock-agent: rewrote " + binaryName + ": " + callSites + " call sites, " + methodReferences
                + " method references";
    }

    /** The line {@code verbose=true} adds, in a dry run, for one class it would rewrite. */
    public static String wouldRewrite(String binaryName, int callSites, int methodReferences) {
        return "clock-agent: would rewrite " + binaryName + ": " + callSites + " call sites, " + methodReferences
                + " method references";
    }
}
