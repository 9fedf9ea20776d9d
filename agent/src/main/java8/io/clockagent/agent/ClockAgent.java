package io.clockagent.agent;

import java.lang.instrument.Instrumentation;

/**
 * The agent's entry points: {@code premain}, {@code agentmain} and, for {@code java -jar clock-agent.jar},
 * {@code main}. Stateless. Compiled for Java 8, like {@link JavaFloor}, so that a JVM older than the agent supports
 * can load it and be told so in one line; each entry point touches the rest of the agent, compiled for Java 11, only
 * after {@link JavaFloor} admits the JVM.
 */
public final class ClockAgent {

    private ClockAgent() {
    }

    /** Called by the JVM for {@code -javaagent:clock-agent.jar=OPTIONS}, before {@code main}. */
    public static void premain(String options, Instrumentation instrumentation) {
        if (JavaFloor.admitsAgent(options, true)) {
            Internals.premain(options, instrumentation);
        }
    }

    /**
     * Called by the JVM when {@code java -jar clock-agent.jar attach|detach PID} loads the agent into a running
     * process: {@code detach} detaches, anything else is the options to attach with.
     */
    public static void agentmain(String options, Instrumentation instrumentation) {
        if (JavaFloor.admitsAgent(options, false)) {
            Internals.agentmain(options, instrumentation);
        }
    }

    /** {@code java -jar clock-agent.jar COMMAND}; see {@link Cli}. */
    public static void main(String[] arguments) {
        if (!JavaFloor.admitsCommand()) {
            System.exit(1);
        }
        Cli.main(arguments);
    }
}
