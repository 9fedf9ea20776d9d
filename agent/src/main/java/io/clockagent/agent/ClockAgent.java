package io.clockagent.agent;

import java.lang.instrument.Instrumentation;

/**
 * The agent's entry points. Stateless: each loads the agent's internals into their own class loader and installs
 * them there.
 */
public final class ClockAgent {

    private static final String INSTALLER = "io.clockagent.agent.internal.Installer";
    /** The agent argument that asks an attached agent to detach; never a valid option string. */
    static final String DETACH = "detach";

    private ClockAgent() {
    }

    /** Called by the JVM for {@code -javaagent:clock-agent.jar=OPTIONS}, before {@code main}. */
    public static void premain(String options, Instrumentation instrumentation) {
        launch(options, instrumentation, true);
    }

    /**
     * Called by the JVM when {@code java -jar clock-agent.jar attach|detach PID} loads the agent into a running
     * process: {@link #DETACH} detaches, anything else is the options to attach with.
     */
    public static void agentmain(String options, Instrumentation instrumentation) {
        launch(options, instrumentation, false);
    }

    private static void launch(String options, Instrumentation instrumentation, boolean atStartup) {
        try {
            Class<?> installer = Class.forName(INSTALLER, true, AgentClassLoader.over(ClockAgent.class));
            if (!atStartup && DETACH.equals(options)) {
                installer.getMethod("detach", Instrumentation.class).invoke(null, instrumentation);
            } else {
                installer.getMethod("install", Instrumentation.class, String.class, boolean.class)
                        .invoke(null, instrumentation, options, atStartup);
            }
        } catch (Throwable failure) {
            System.err.println("clock-agent: off, the service runs without it: could not load the agent: " + failure);
        }
    }
}
