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
     * Binds the native methods of a copy's {@code LibraryCalls} class, which that copy's own class loader defines, to
     * this library: the agent then calls it directly, without the method handles whose first calls cost startup time.
     *
     * @return null once bound, else why not
     */
    static native String bind(Class<?> calls);
}
