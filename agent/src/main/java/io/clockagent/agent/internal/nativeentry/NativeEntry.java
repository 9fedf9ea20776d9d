package io.clockagent.agent.internal.nativeentry;

import io.clockagent.agent.internal.activecopy.ActiveCopy;
import io.clockagent.agent.internal.diagnostics.HostClocksource;
import io.clockagent.agent.internal.log.AgentLog;
import io.clockagent.agent.internal.options.AgentOptions;
import java.io.UnsupportedEncodingException;

/**
 * Starts what the native start ({@code -agentpath}, or {@code -javaagent} through the library) runs in Java: the
 * {@link NativeInstallation} that the C half then reports to. Called once, by the C half, after it has read the
 * options, printed the banner and claimed the JVM with it: on a thread of its own once the clock is defined or JMX
 * starts, or at the JVM's start where {@code verbose}, {@code report} or {@code dryRun} asks for this side from the
 * first class.
 */
public final class NativeEntry {

    private NativeEntry() {
    }

    /**
     * @param agentArguments the text after {@code =} in {@code -agentpath:libclockagent.so=...} or
     *     {@code -javaagent:clock-agent.jar=...}, as the UTF-8 bytes the C half read, or null
     * @param banner the banner the C half printed and claimed the JVM with
     * @return what the C half reports to, or null if this copy stands aside
     */
    public static Object start(byte[] agentArguments, String banner) {
        AgentLog log = AgentLog.toStandardError();
        try {
            if (!banner.equals(ActiveCopy.active())) {
                log.line("this copy's claim to be active was taken away; it starts no ticker");
                return null;
            }
            // The C grammar accepted these already (NativeOptionsParityTest holds the two parsers to one outcome).
            AgentOptions options = AgentOptions.fromSources(utf8(agentArguments),
                    System.getProperty(AgentOptions.SYSTEM_PROPERTY), System.getenv(AgentOptions.ENVIRONMENT_VARIABLE));
            return new NativeInstallation(options, banner, HostClocksource.describe(), log);
        } catch (RuntimeException | Error | UnsupportedEncodingException failure) {
            log.line("the ticker did not start, so reads take the direct clock: " + failure);
            return null;
        }
    }

    /**
     * The arguments' text as the C grammar read it: UTF-8, with U+FFFD for a malformed sequence on both sides. Passed
     * as bytes since JNI's own strings are modified UTF-8, which writes a character beyond the Basic Multilingual
     * Plane in six bytes, so that a report path holding one would name another file. The charset named rather than
     * {@code StandardCharsets.UTF_8}, for the reason {@code NativeStart} gives.
     */
    private static String utf8(byte[] bytes) throws UnsupportedEncodingException {
        return bytes == null ? null : new String(bytes, "UTF-8");
    }
}
