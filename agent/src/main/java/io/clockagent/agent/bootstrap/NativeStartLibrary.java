package io.clockagent.agent.bootstrap;

/**
 * The native library as the {@code -javaagent} entry loads it on Java 24 and later, which warn when code outside
 * {@code java.base} loads a library (JEP 472) unless the command line grants it native access.
 *
 * <p>The agent defines a copy of this class named {@code java.lang.ClockAgentNativeStartLibrary} in the boot loader
 * and initializes it: the initializer loads the library, as code of {@code java.base} may without a warning, and binds
 * the agent's native start to it. Calling a method of a class in {@code java.lang} would take a private lookup and a
 * method handle, whose first calls cost milliseconds of startup; its initializer costs nothing more than the class.
 * So the agent hands over what the initializer needs in a system property, for the moment of initialization, and the
 * initializer takes it out again. Nothing here is callable: an initialized copy only keeps the library loaded.
 */
final class NativeStartLibrary {

    /**
     * The system property that holds, while the agent initializes this class, an {@code Object[]} of the library's
     * file name and the class whose native start to bind; its value is never a string, so no property listing
     * shows it.
     */
    private static final String HAND_OVER = "clockagent.nativeStart";

    static {
        Object[] handedOver = (Object[]) System.getProperties().remove(HAND_OVER);
        System.load((String) handedOver[0]);
        bind((Class<?>) handedOver[1]);
    }

    private NativeStartLibrary() {
    }

    /** Binds the native start of the agent's class ({@code install.NativeStart}) to this library. */
    private static native void bind(Class<?> nativeStart);
}
