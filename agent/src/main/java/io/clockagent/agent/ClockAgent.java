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
        forward("premain", options, instrumentation);
    }

    /**
     * Called by the JVM when {@code java -jar clock-agent.jar attach|detach PID} loads the agent into a running
     * process: {@code detach} detaches, anything else is the options to attach with.
     */
    public static void agentmain(String options, Instrumentation instrumentation) {
        forward("agentmain", options, instrumentation);
    }

    /** Calls the method of the same name and signature on the internals, loaded apart from the application. */
    private static void forward(String entryPoint, String options, Instrumentation instrumentation) {
        try {
            Class.forName(INSTALLER, true, AgentClassLoader.over(ClockAgent.class))
                    .getMethod(entryPoint, String.class, Instrumentation.class)
                    .invoke(null, options, instrumentation);
        } catch (Throwable failure) {
            System.err.println("clock-agent: off, the service runs without it: could not load the agent: " + failure);
        }
    }
}
