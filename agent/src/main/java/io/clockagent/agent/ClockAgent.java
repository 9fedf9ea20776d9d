package io.clockagent.agent;

import java.lang.instrument.Instrumentation;

/**
 * The agent's entry points. Stateless: each loads the agent's internals into their own class loader and installs
 * them there.
 */
public final class ClockAgent {

    private static final String INSTALLER = "io.clockagent.agent.internal.Installer";

    private ClockAgent() {
    }

    /** Called by the JVM for {@code -javaagent:clock-agent.jar=OPTIONS}, before {@code main}. */
    public static void premain(String options, Instrumentation instrumentation) {
        launch(options, instrumentation, true);
    }

    /** Called by the JVM when the agent is attached to a running process. */
    public static void agentmain(String options, Instrumentation instrumentation) {
        launch(options, instrumentation, false);
    }

    private static void launch(String options, Instrumentation instrumentation, boolean atStartup) {
        try {
            ClassLoader internals = AgentClassLoader.over(ClockAgent.class);
            Class.forName(INSTALLER, true, internals)
                    .getMethod("install", Instrumentation.class, String.class, boolean.class)
                    .invoke(null, instrumentation, options, atStartup);
        } catch (Throwable failure) {
            System.err.println("clock-agent: off, the service runs without it: could not load the agent: " + failure);
        }
    }
}
