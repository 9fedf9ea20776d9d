package io.clockagent.agent.internal.nativeentry;

import io.clockagent.agent.internal.activecopy.ActiveCopy;
import io.clockagent.agent.internal.clock.CachedClockWriter;
import io.clockagent.agent.internal.clock.Ticker;
import io.clockagent.agent.internal.diagnostics.AgentVersion;
import io.clockagent.agent.internal.diagnostics.HostClocksource;
import io.clockagent.agent.internal.log.AgentLog;
import io.clockagent.agent.internal.options.AgentOptions;
import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts what the {@code -agentpath} entry runs in Java: the banner, which confirms the C half's claim to be the JVM's
 * active copy, and the ticker. Called once, by the C half's start thread, after the C half has read the options and
 * defined the clock.
 */
public final class NativeEntry {

    private NativeEntry() {
    }

    /**
     * @param agentArguments the text after {@code =} in {@code -agentpath:libclockagent.so=...}, or null
     * @param clock the cached clock class the C half defined in {@code java.lang}
     * @param clockAccess the clock's own lookup, which only the C half can take from it
     */
    public static void start(String agentArguments, Class<?> clock, MethodHandles.Lookup clockAccess) {
        AgentLog log = AgentLog.toStandardError();
        try {
            // The C grammar accepted these already (NativeOptionsParityTest holds the two parsers to one outcome).
            AgentOptions options = AgentOptions.fromSources(agentArguments,
                    System.getProperty(AgentOptions.SYSTEM_PROPERTY), System.getenv(AgentOptions.ENVIRONMENT_VARIABLE));
            String banner = AgentVersion.read() + " caching System.currentTimeMillis(): " + options.describe()
                    + " clocksource=" + HostClocksource.describe();
            if (!ActiveCopy.confirmAgentPathClaim(banner)) {
                log.line("the -agentpath copy's claim to be active was taken away; it starts no ticker");
                return;
            }
            log.line(banner);
            List<String> notServed = notServedHere(options);
            if (!notServed.isEmpty()) {
                log.line("through -agentpath, not yet: " + String.join(", ", notServed) + " (use -javaagent for"
                        + " them); the clock is cached as asked");
            }
            Ticker.prepare(null, options.tickNanos(), options.waitStrategy(), options.monotonic(),
                    options.cachePolicy()).startOnce(new CachedClockWriter(clock, clockAccess));
        } catch (RuntimeException | Error failure) {
            log.line("the ticker did not start, so reads take the direct clock: " + failure);
        }
    }

    /** What a user asked for that this entry does not give yet. */
    private static List<String> notServedHere(AgentOptions options) {
        List<String> notServed = new ArrayList<>();
        if (options.verbose()) {
            notServed.add("verbose=true");
        }
        if (options.reportSummary() || options.reportFile() != null) {
            notServed.add("report");
        }
        return notServed;
    }
}
