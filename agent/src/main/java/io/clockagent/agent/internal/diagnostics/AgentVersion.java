package io.clockagent.agent.internal.diagnostics;

import io.clockagent.agent.internal.options.AgentOptions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** The project version, written into a resource by the build, and the banner that states it. */
public final class AgentVersion {

    private static final String RESOURCE = "version.txt";
    /* The banner's phrases; the -agentpath entry's C half prints the same banner from them (BannerHeader). */
    static final String CACHING = " caching System.currentTimeMillis(): ";
    static final String DRY_RUN = " finding System.currentTimeMillis() call sites, rewriting nothing: ";
    static final String CLOCKSOURCE = " clocksource=";

    private AgentVersion() {
    }

    public static String read() {
        try (InputStream in = AgentVersion.class.getResourceAsStream(RESOURCE)) {
            return in == null ? "unknown" : new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        } catch (IOException unreadable) {
            return "unknown";
        }
    }

    /**
     * The line the agent prints as it starts, through either entry, and claims the JVM with: the version, what the
     * agent does, the options in force and the host's clocksource.
     */
    public static String banner(AgentOptions options, String clocksource) {
        return read() + (options.dryRun() ? DRY_RUN : CACHING) + options.describe() + CLOCKSOURCE + clocksource;
    }
}
