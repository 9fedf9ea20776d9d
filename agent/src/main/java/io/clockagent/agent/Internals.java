package io.clockagent.agent;

import io.clockagent.agent.internal.install.NativeStart;
import java.lang.instrument.Instrumentation;

/**
 * The agent's internals, reached from the entry points once the JVM is known to be one the agent supports: loaded
 * in a class loader of their own, apart from the application, and called there; only the native start below Java 24
 * runs in the application class loader ({@link #premain}).
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
    /** Installer's Java start, for where the native start has already been tried. */
    private static final String JAVA_START = "startInJava";

    private Internals() {
    }

    /**
     * {@code premain}. Below Java 24 the native start runs right here, in the application class loader that already
     * holds the jar open: nothing it does there needs the internals' own module, and it is spared a second opening of
     * the jar, a class loader and a reflective call (about 1.5 ms of premain on JDK 17; benchmarks/README.md). The
     * classes it loads here hold no state of the agent's. From Java 24 on, and wherever the native start cannot serve,
     * the installer in the internals' own loader starts the agent.
     */
    public static void premain(String options, Instrumentation instrumentation) {
        int release = Integer.parseInt(System.getProperty("java.specification.version"));
        if (release >= FIRST_RELEASE_RESTRICTING_LIBRARIES) {
            call("premain", options, instrumentation);
        } else if (!startedNatively(options, instrumentation)) {
            call(JAVA_START, options, instrumentation);
        }
    }

    /** NativeStart's answer; false, for the Java start, if it fails outright (its classes cannot load here). */
    private static boolean startedNatively(String options, Instrumentation instrumentation) {
        try {
            return NativeStart.startedNatively(options, instrumentation);
        } catch (RuntimeException | LinkageError cannotStart) {
            return false;
        }
    }

    /**
     * Calls the installer's {@code method}: {@code premain} or {@code agentmain} for the entry point of that name, or
     * {@value #JAVA_START}; each has the entry points' signature.
     */
    public static void call(String method, String options, Instrumentation instrumentation) {
        try {
            Class.forName(INSTALLER, true, AgentClassLoader.over(Internals.class))
                    .getMethod(method, String.class, Instrumentation.class)
                    .invoke(null, options, instrumentation);
        } catch (Throwable failure) {
            System.err.println("clock-agent: off, the service runs without it: could not load the agent: " + failure);
        }
    }
}
