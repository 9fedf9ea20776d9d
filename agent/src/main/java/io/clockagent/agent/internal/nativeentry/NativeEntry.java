package io.clockagent.agent.internal.nativeentry;

import io.clockagent.agent.internal.activecopy.ActiveCopy;
import io.clockagent.agent.internal.diagnostics.HostClocksource;
import io.clockagent.agent.internal.install.Installation;
import io.clockagent.agent.internal.log.AgentLog;
import io.clockagent.agent.internal.options.AgentOptions;

/**
 * Starts what the native start ({@code -agentpath}, {@code JVMTI.agent_load}, or {@code -javaagent} and the jar's
 * attach through the library) runs in Java: the {@link Installation}, over the C hook, that the C half then reports
 * to. Called once, by the C half, after it has read the
 * options, printed the banner and claimed the JVM with it: on a thread of its own once the clock is defined or JMX
 * starts, or at the JVM's start where {@code verbose}, {@code report} or {@code dryRun} asks for this side from the
 * first class.
 */
public final class NativeEntry {

    private NativeEntry() {
    }

    /**
     * The three sources' texts are those the C half parsed, as it read them: read again here, the property and the
     * environment variable may have changed since, or decode otherwise (a POSIX locale's decoding of UTF-8).
     *
     * @param agentArguments the text after {@code =} in {@code -agentpath:libclockagent.so=...} or
     *     {@code -javaagent:clock-agent.jar=...}, or null
     * @param systemProperty the system property {@value AgentOptions#SYSTEM_PROPERTY} as the C half read it, or null
     * @param environmentVariable {@value AgentOptions#ENVIRONMENT_VARIABLE} as the C half read it, or null
     * @param banner the banner the C half printed and claimed the JVM with
     * @return what the C half reports to, or null if this copy stands aside
     */
    public static Object start(String agentArguments, String systemProperty, String environmentVariable,
            String banner) {
        AgentLog log = AgentLog.toStandardError();
        try {
            if (!banner.equals(ActiveCopy.active())) {
                log.line("this copy's claim to be active was taken away; it starts no ticker");
                return null;
            }
            // The C grammar accepted these already (NativeOptionsParityTest holds the two parsers to one outcome).
            AgentOptions options = AgentOptions.fromSources(agentArguments, systemProperty, environmentVariable);
            return new Installation(new HookRewriting(options.packages()), options, banner, HostClocksource.describe(),
                    log.quietIf(options.quiet()));
        } catch (RuntimeException | Error failure) {
            log.line("the ticker did not start, so reads take the direct clock: " + failure);
            return null;
        }
    }
}
