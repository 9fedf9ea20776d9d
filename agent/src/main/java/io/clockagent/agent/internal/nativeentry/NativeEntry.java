package io.clockagent.agent.internal.nativeentry;

import io.clockagent.agent.internal.activecopy.ActiveCopy;
import io.clockagent.agent.internal.diagnostics.AgentVersion;
import io.clockagent.agent.internal.diagnostics.HostClocksource;
import io.clockagent.agent.internal.log.AgentLog;
import io.clockagent.agent.internal.options.AgentOptions;

/**
 * Starts what the {@code -agentpath} entry runs in Java: the banner, which confirms the C half's claim to be the JVM's
 * active copy, and the {@link AgentPathInstallation} that the C half then reports to. Called once, by the C half's
 * start thread, after the C half has read the options: once the clock is defined, or at the JVM's start where
 * {@code verbose}, {@code report} or {@code dryRun} asks for this side from the first class, or once JMX starts.
 */
public final class NativeEntry {

    private NativeEntry() {
    }

    /**
     * @param agentArguments the text after {@code =} in {@code -agentpath:libclockagent.so=...}, or null
     * @return what the C half reports to, or null if this copy stands aside
     */
    public static Object start(String agentArguments) {
        AgentLog log = AgentLog.toStandardError();
        try {
            // The C grammar accepted these already (NativeOptionsParityTest holds the two parsers to one outcome).
            AgentOptions options = AgentOptions.fromSources(agentArguments,
                    System.getProperty(AgentOptions.SYSTEM_PROPERTY), System.getenv(AgentOptions.ENVIRONMENT_VARIABLE));
            String clocksource = HostClocksource.describe();
            String banner = AgentVersion.banner(options, clocksource);
            if (!ActiveCopy.confirmAgentPathClaim(banner)) {
                log.line("the -agentpath copy's claim to be active was taken away; it starts no ticker");
                return null;
            }
            log.line(banner);
            return new AgentPathInstallation(options, clocksource, log);
        } catch (RuntimeException | Error failure) {
            log.line("the ticker did not start, so reads take the direct clock: " + failure);
            return null;
        }
    }
}
