package io.clockagent.agent.internal.install;

import io.clockagent.agent.Internals;
import io.clockagent.agent.internal.clock.BootClock;
import io.clockagent.agent.internal.options.AgentOptions;
import java.io.File;
import java.io.UnsupportedEncodingException;
import java.lang.instrument.Instrumentation;

/**
 * The {@code -javaagent} entry's start, and the jar's attach: where the jar carries the native library for this
 * platform, {@code premain} and {@code agentmain} load it and hand the start over to the {@code -agentpath} entry's C
 * half (agent/src/main/c/java_agent_start.c), which reads the options, prints the banner, rewrites from the first
 * class in scope (attached: the classes loaded already too) and later starts the agent's Java side, as it does for
 * {@code -agentpath}. So no more of the agent's Java runs before {@code main} than the entry, this class and
 * {@link NativeLibraries} (and from Java 24 on the internals' gateway and loader, and {@code BootClock}): the Java
 * start ({@link TransformerRewriting}) loads about thirty classes, in the interpreter, and opens {@code java.lang},
 * whose first lambdas are the JVM's. That start remains where this one cannot serve: {@code nativeFilter=false}, no
 * library for the platform, a library that cannot load (a {@code noexec} temporary directory), and, from Java 24 on,
 * an attach after a detach, as the library's loading class in {@code java.lang} binds the start of the first copy
 * alone. This start then says nothing and leaves the Java start why, which {@code nativeFilter=true} prints.
 *
 * <p>Java 24 and later warn when code outside {@code java.base} loads a library (JEP 472); there the library is loaded
 * by a class defined in {@code java.lang} ({@code bootstrap.NativeStartLibrary}, renamed by the build), which costs
 * {@code java.lang}'s opening after all, to the internals' own module: there this class runs in their class loader,
 * where their gateway ({@code Internals}) calls {@link #premain} by name. Below Java 24 the entry class
 * ({@code ClockAgent}) calls {@link #startedNatively} straight from the application class loader, where it loads the
 * library itself; it holds no state.
 */
public final class NativeStart {

    /**
     * Two of what the C half's start can come to (agent/src/main/c/agent_entry.h, {@code entry_start}); the others,
     * started and off, it has said where it must.
     */
    private static final int STOP_JVM = 2;
    private static final int START_IN_JAVA = 3;

    static final String LIBRARY_INTERNAL_NAME = "java/lang/ClockAgentNativeStartLibrary";
    /** What the build renames into {@link #LIBRARY_CLASS_FILE_RESOURCE}; never loaded at run time. */
    static final String LIBRARY_SOURCE_INTERNAL_NAME = "io/clockagent/agent/bootstrap/NativeStartLibrary";
    /**
     * The resource that holds the loading class's file as it is defined in {@code java.lang}, renamed by the build
     * (agent/src/build/java, {@code NativeStartLibraryClassFile}); not a {@code .class} name, as it is no class of the
     * jar's.
     */
    static final String LIBRARY_CLASS_FILE_RESOURCE =
            "io/clockagent/agent/bootstrap/ClockAgentNativeStartLibrary.classbytes";
    /** NativeStartLibrary.HAND_OVER. */
    private static final String HAND_OVER = "clockagent.nativeStart";
    /**
     * The system property that holds, from a native start that left the start to Java below Java 24 until the Java
     * start in the internals' loader takes it, an {@code Object[]} of why; never a string, so no property listing
     * shows it. Before {@code main}, where the application reads no property yet.
     */
    private static final String WHY_NOT_NATIVE = "clockagent.whyNotNative";

    private NativeStart() {
    }

    /**
     * {@code premain} from Java 24 on, called in the internals' own loader by their gateway ({@code Internals}), with
     * the entry points' signature: the native start, or where it cannot serve the installer's Java start, so that the
     * installer loads only then.
     */
    public static void premain(String agentArguments, Instrumentation instrumentation) {
        String whyNotNative = start(agentArguments, instrumentation, false);
        if (whyNotNative != null) {
            Installer.startInJava(agentArguments, instrumentation, whyNotNative);
        }
    }

    /**
     * {@code premain} below Java 24, from the application class loader: the native start, or false for the Java
     * start in the internals' loader, which takes why from a system property ({@link #whyNotNative}).
     */
    public static boolean startedNatively(String agentArguments, Instrumentation instrumentation) {
        String whyNotNative = start(agentArguments, instrumentation, false);
        if (whyNotNative != null) {
            System.getProperties().put(WHY_NOT_NATIVE, new Object[] {whyNotNative});
        }
        return whyNotNative == null;
    }

    /** Why the native start left the start below Java 24 to Java, taken out of its property; null if it left none. */
    static String whyNotNative() {
        Object left = System.getProperties().remove(WHY_NOT_NATIVE);
        return left instanceof Object[] ? (String) ((Object[]) left)[0] : null;
    }

    /**
     * Starts the agent through the native library if it can, with the JVM's own Instrumentation alone, and stops the
     * JVM where the C half says so ({@code strict=true} and a bad option, at startup only).
     *
     * @param attached whether {@code agentmain} attaches the agent to a running JVM
     * @return null once the C half has started the agent or said why it is off; otherwise why the Java start is to
     *     serve, with nothing said or done here
     */
    static String start(String agentArguments, Instrumentation instrumentation, boolean attached) {
        if (!isTheJvms(instrumentation)) {
            return "not the JVM's own Instrumentation";
        }
        try {
            File jar = NativeLibraries.jarOf(NativeStart.class);
            File library = NativeLibraries.writePrivateCopy(jar);
            if (library == null) {
                return "the agent jar carries no library for " + NativeLibraries.thisPlatform();
            }
            try {
                load(library.getPath(), instrumentation);
            } finally {
                NativeLibraries.deletePrivateCopy(library);
            }
            int started = start(utf8(agentArguments), utf8(System.getProperty(AgentOptions.SYSTEM_PROPERTY)),
                    utf8(jar.getPath()), attached);
            if (started == STOP_JVM) {
                System.exit(1);
            }
            return started == START_IN_JAVA ? "the native library could not hook class loading" : null;
        } catch (Exception | LinkageError cannotStartHere) {
            return cannotStartHere.toString();
        }
    }

    /**
     * Whether this is the Instrumentation the JVM hands to agents, which only the java.instrument module can create:
     * the public entry points are no way around the JVM's own control over agents. Here rather than in the installer,
     * which asks it too, as the native start asks it first, without loading the installer.
     */
    static boolean isTheJvms(Instrumentation instrumentation) {
        return instrumentation != null && instrumentation.getClass().getModule() == Instrumentation.class.getModule();
    }

    private static void load(String libraryFile, Instrumentation instrumentation) throws Exception {
        String release = System.getProperty("java.specification.version");
        if (Integer.parseInt(release) < Internals.FIRST_RELEASE_RESTRICTING_LIBRARIES) {
            System.load(libraryFile);
            return;
        }
        BootClock.openJavaLang(instrumentation);
        System.getProperties().put(HAND_OVER, new Object[] {libraryFile, NativeStart.class});
        try {
            Class<?> library = BootClock.defineOrFindBuiltInJavaLang(LIBRARY_CLASS_FILE_RESOURCE,
                    LIBRARY_INTERNAL_NAME);
            Class.forName(library.getName(), true, null);
        } finally {
            System.getProperties().remove(HAND_OVER);
        }
    }

    /**
     * As UTF-8, which the C grammar reads, as it reads {@code -agentpath}'s command line; JNI's own strings are
     * modified UTF-8, which writes a character beyond the Basic Multilingual Plane in six bytes. Named rather than
     * {@code StandardCharsets.UTF_8}, whose class would build five more charsets before {@code main}; the JDK finds
     * UTF-8 by name without them.
     */
    private static byte[] utf8(String text) throws UnsupportedEncodingException {
        return text == null ? null : text.getBytes("UTF-8");
    }

    /**
     * The C half's start, each argument UTF-8 or null, {@code attached} from {@code agentmain}: an {@code entry_start}
     * ({@link #STOP_JVM} never when attached). Bound by name where this class loaded the library, else by
     * NativeStartLibrary.
     */
    private static native int start(byte[] agentArguments, byte[] optionsProperty, byte[] agentJar,
            boolean attached);
}
