package io.clockagent.agent.internal.nativefilter;

/**
 * The native class filter's entry points (agent/src/main/c/native_filter.c), as this copy of the agent calls them.
 * The library lives in the boot loader, so the JVM cannot bind these methods by name: the library binds them when
 * {@code java.lang.ClockAgentNativeFilterLibrary.bind} is given this class. Each copy of the agent has its own class
 * loader and so its own copy of this class, bound in turn; the library keeps its starts and stops apart.
 */
final class LibraryCalls {

    private LibraryCalls() {
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
    static native String start(Object target, ClassLoader platformLoader, ClassLoader agentLoader,
            String[] includePrefixes, String[] excludePrefixes, String[] cachedInstantsPrefixes,
            String[] ignoredPrefixes, String[] passedNames, String clockInternalName, boolean reportsRewrites);

    /** Stops calling the target; a no-op when not started. */
    static native void stop();

    /** Classes in scope checked since the library was loaded, over every start. */
    static native long classesScanned();

    /** Classes the library rewrote itself since it was loaded, over every start. */
    static native long classesRewritten();
}
