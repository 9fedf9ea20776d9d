package io.clockagent.agent;

import java.lang.instrument.Instrumentation;

/**
 * The agent's internals, reached from the entry points once the JVM is known to be one the agent supports: loaded
 * in a class loader of their own, apart from the application, and called there; only the native start below Java 24
 * runs in the application class loader, called by the entry itself ({@code ClockAgent.premain}).
 */
public final class Internals {

    /** The oldest Java feature release the agent runs on: what {@code --release} the agent module compiles for. */
    public static final int OLDEST_SUPPORTED_FEATURE = 11;

    /**
     * From this release on, a library loaded from outside {@code java.base} draws the JVM's native-access warning
     * (JEP 472), so the native start opens {@code java.lang} to the internals' own module and loads the library from
     * there.
     */
    public static final int FIRST_RELEASE_RESTRICTING_LIBRARIES = 24;

    private static final String INSTALLER = "io.clockagent.agent.internal.install.Installer";
    private static final String NATIVE_START = "io.clockagent.agent.internal.install.NativeStart";

    private Internals() {
    }

    /**
     * {@code premain} from Java 24 on: the native start in the internals' own loader, which may still fall back to the
     * installer's Java start there.
     */
    public static void startNatively(String options, Instrumentation instrumentation) {
        call(NATIVE_START, "premain", options, instrumentation);
    }

    /** {@code premain} below Java 24, where the entry's own native start could not start the agent. */
    public static void startInJava(String options, Instrumentation instrumentation) {
        call(INSTALLER, "startInJava", options, instrumentation);
    }

    /** {@code agentmain}: the installer attaches or, asked to, detaches. */
    public static void agentmain(String options, Instrumentation instrumentation) {
        call(INSTALLER, "agentmain", options, instrumentation);
    }

    /**
     * Calls {@code method} of the internals' class {@code className} in their own loader. Each such method has the
     * entry points' signature, so the reflective call reuses the method-handle forms the JVM has just built to call
     * {@code premain} or {@code agentmain}: a new signature costs milliseconds of startup on JDK 18 and later
     * (see benchmarks/README.md#what-the-start-avoids-and-what-was-dropped).
     */
    private static void call(String className, String method, String options, Instrumentation instrumentation) {
        try {
            Class.forName(className, true, AgentClassLoader.over(Internals.class))
                    .getMethod(method, String.class, Instrumentation.class)
                    .invoke(null, options, instrumentation);
        } catch (Throwable failure) {
            System.err.println("clock-agent: off, the service runs without it: could not load the agent: " + failure);
        }
    }
}
