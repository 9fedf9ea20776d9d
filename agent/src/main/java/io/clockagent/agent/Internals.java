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
    private static final String NATIVE_START = "io.clockagent.agent.internal.install.NativeStart";

    private Internals() {
    }

    /**
     * {@code premain}. Below Java 24 the native start runs right here, in the application class loader that already
     * holds the jar open: nothing it does there needs the internals' own module, and it is spared a second opening of
     * the jar, a class loader and a reflective call (with the library read as a zip entry, about 1 ms of premain on
     * JDK 17; benchmarks/README.md). The classes it loads here hold no state of the agent's. From Java 24 on the
     * native start runs in the internals' own loader, and wherever it cannot serve, the installer's Java start there.
     */
    public static void premain(String options, Instrumentation instrumentation) {
        int release = Integer.parseInt(System.getProperty("java.specification.version"));
        if (release >= FIRST_RELEASE_RESTRICTING_LIBRARIES) {
            call(NATIVE_START, "premain", options, instrumentation);
        } else if (!startedNatively(options, instrumentation)) {
            call(INSTALLER, "startInJava", options, instrumentation);
        }
    }

    /** {@code agentmain}: the installer attaches or, asked to, detaches. */
    public static void agentmain(String options, Instrumentation instrumentation) {
        call(INSTALLER, "agentmain", options, instrumentation);
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
     * Calls {@code method} of the internals' class {@code className} in their own loader. Each such method has the
     * entry points' signature, so the reflective call reuses the method-handle forms the JVM has just built to call
     * {@code premain} or {@code agentmain}: a new signature costs milliseconds of startup on JDK 18 and later
     * (benchmarks/README.md, "What the agent's startup avoids").
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
