package io.clockagent.agent.bootstrap;

/**
 * The native class filter's library (agent/src/main/c/native_filter.c) as the boot loader holds it: the filter turns
 * away the classes the agent would leave unchanged before they reach Java, and rewrites the others itself.
 *
 * <p>The agent defines a copy of this class named {@code java.lang.ClockAgentNativeFilterLibrary} in the boot loader,
 * beside the cached clock, and loads the library through it. Code of {@code java.base} has native access, so JDK 24
 * and later print no restricted-method warning for the load, and the access granted is this class's alone: the
 * application's modules gain none. Everything here is package-private, so no application class can call it; the
 * agent reaches it through a private lookup. It imports {@code java.*} only.
 */
final class NativeFilterLibrary {

    private NativeFilterLibrary() {
    }

    /** Loads the library into the boot loader, so that the methods below bind to it. */
    static void load(String libraryFile) {
        System.load(libraryFile);
    }

    /**
     * Starts showing {@code target}, through its {@code byte[] filtered(ClassLoader, String, byte[])}, the classes
     * of loaders other than the boot, platform and agent loaders, in scope by these internal-name prefixes, whose
     * bytes name the clock method; and the classes named in {@code passedNames}, whatever their loader. The library
     * rewrites such classes itself, pointing their clock reads at {@code clockInternalName}, unless the class is one
     * the Java side would refuse or report; before the first, it calls the target's {@code void rewritingNatively()},
     * which starts the ticker, and, if {@code reportsRewrites} (something shows call sites), after each it shows the
     * class's name and original bytes to the target's {@code void rewroteNatively(String, byte[])}.
     * Before looking at a thread's first class, it asks the target, through
     * {@code boolean examinedByJava(ClassLoader, String)}, whether the Java transformer has examined it already.
     *
     * @return null once started, else why it could not start
     */
    static synchronized native String start(Object target, ClassLoader platformLoader, ClassLoader agentLoader,
            String[] includePrefixes, String[] excludePrefixes, String[] ignoredPrefixes, String[] passedNames,
            String clockInternalName, boolean reportsRewrites);

    /** Stops calling the transformer; a no-op when not started. */
    static synchronized native void stop();

    /** Classes in scope checked since the library was loaded, over every start. */
    static native long classesScanned();

    /** Classes the library rewrote itself since it was loaded, over every start. */
    static native long classesRewritten();
}
