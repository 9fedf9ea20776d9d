package io.clockagent.agent;

import java.lang.instrument.Instrumentation;

/**
 * The agent's internals, reached from the entry points once the JVM is known to be one the agent supports: loaded
 * in a class loader of their own, apart from the application, and called there.
 */
public final class Internals {

    /** The oldest Java feature release the agent runs on: what {@code --release} the agent module compiles for. */
    public static final int OLDEST_SUPPORTED_FEATURE = 11;

    private static final String INSTALLER = "io.clockagent.agent.internal.install.Installer";

    private Internals() {
    }

    /**
     * Calls the installer's method of the same name as the entry point, {@code premain} or {@code agentmain}, which
     * has the same signature.
     */
    public static void call(String entryPoint, String options, Instrumentation instrumentation) {
        try {
            Class.forName(INSTALLER, true, AgentClassLoader.over(Internals.class))
                    .getMethod(entryPoint, String.class, Instrumentation.class)
                    .invoke(null, options, instrumentation);
        } catch (Throwable failure) {
            System.err.println("clock-agent: off, the service runs without it: could not load the agent: " + failure);
        }
    }
}
