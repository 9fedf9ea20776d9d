package io.clockagent.agent.internal.clock;

import io.clockagent.agent.internal.classfile.ClassRenamer;
import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandles;
import java.util.Map;
import java.util.Set;

/**
 * Defines the cached clock class in {@code java.lang}, where every class loader and module can resolve it.
 *
 * <p>A class in the boot loader inside a package that {@code java.base} exports to everyone is visible from the
 * class path, custom, child-first and nested-jar loaders alike (all of them delegate {@code java.*} upwards), and
 * from every named module (all read {@code java.base}). Defining it through a private lookup needs
 * {@code java.lang} open to the agent; the agent's classes live in their own class loader, whose module is the only
 * one it is opened to, so the application gains no access. Appending a jar to the boot class path would also work
 * but turns class-data sharing off for application classes and prints a warning. The agent's other class in
 * {@code java.lang}, which loads the native library warning-free, is defined the same way.
 */
public final class BootClock {

    public static final String INTERNAL_NAME = "java/lang/ClockAgentCachedClock";
    /** Named as text: the source class is never loaded, only read, renamed and defined. */
    static final String SOURCE_INTERNAL_NAME = "io/clockagent/agent/bootstrap/CachedClock";
    /**
     * What the clock's source compiles against in place of {@link #UNSAFE_INTERNAL_NAME}, on JDK 24+ and 11-23: the
     * longer name first, as the shorter is a part of it.
     */
    static final String[] CELL_ACCESS_INTERNAL_NAMES = {"io/clockagent/agent/bootstrap/CellAccessSince24",
        "io/clockagent/agent/bootstrap/CellAccess"};
    static final String UNSAFE_INTERNAL_NAME = "jdk/internal/misc/Unsafe";
    /** What the clock's source compiles against in place of {@code java.time.InstantSource}, which Java 11 lacks. */
    static final String INSTANT_SOURCE_STAND_IN_INTERNAL_NAME = "io/clockagent/agent/bootstrap/InstantSourceStandIn";
    static final String INSTANT_SOURCE_INTERNAL_NAME = "java/time/InstantSource";
    /** The first Java whose {@code java.time} has {@code InstantSource}. */
    public static final int INSTANT_SOURCE_FEATURE = 17;
    /**
     * What the stand-in becomes where the JDK lacks {@code InstantSource}: reflection over the clock resolves every
     * type its methods return, and a {@code Clock} is what they return anyway.
     */
    static final String CLOCK_INTERNAL_NAME = "java/time/Clock";

    private BootClock() {
    }

    /**
     * Defines the clock, or finds the one an earlier copy of the agent defined (the class outlives a detach), and
     * returns its write side, which the caller must hand to the ticker alone.
     */
    static CachedClockWriter defineOrFind(Instrumentation instrumentation)
            throws ReflectiveOperationException, IOException {
        openJavaLang(instrumentation);
        Class<?> earlier = definedInJavaLang(INTERNAL_NAME);
        Class<?> clock = earlier != null ? earlier
                : define(classFile(Runtime.version().feature() >= INSTANT_SOURCE_FEATURE));
        return new CachedClockWriter(clock, MethodHandles.privateLookupIn(clock, MethodHandles.lookup()));
    }

    /**
     * The clock's class file as both entries define it: the agent's class named {@link #INTERNAL_NAME}, reaching its
     * cells through the JDK's {@code Unsafe} where its source names the stand-ins {@code CellAccess} and
     * {@code CellAccessSince24}, and, for a JDK {@code withInstantSource} (Java 17+), returning a
     * {@code java.time.InstantSource} where its source names {@code InstantSourceStandIn}; for an older one, a
     * {@code Clock} there.
     */
    public static byte[] classFile(boolean withInstantSource) throws IOException {
        byte[] renamed = ClassRenamer.rename(sourceBytes(SOURCE_INTERNAL_NAME), SOURCE_INTERNAL_NAME, INTERNAL_NAME);
        for (String cellAccess : CELL_ACCESS_INTERNAL_NAMES) {
            renamed = ClassRenamer.rename(renamed, cellAccess, UNSAFE_INTERNAL_NAME);
        }
        return withInstantSource(renamed, withInstantSource);
    }

    /** The clock's class file with its stand-in for {@code InstantSource} renamed as {@link #classFile} has it. */
    static byte[] withInstantSource(byte[] classFile, boolean withInstantSource) {
        return ClassRenamer.rename(classFile, INSTANT_SOURCE_STAND_IN_INTERNAL_NAME,
                withInstantSource ? INSTANT_SOURCE_INTERNAL_NAME : CLOCK_INTERNAL_NAME);
    }

    /**
     * Opens {@code java.lang} to the agent's module alone, which {@link #defineOrFindBuiltInJavaLang} needs.
     */
    public static void openJavaLang(Instrumentation instrumentation) {
        instrumentation.redefineModule(Object.class.getModule(), Set.of(), Map.of(),
                Map.of("java.lang", Set.of(BootClock.class.getModule())), Set.of(), Map.of());
    }

    /**
     * The class an earlier copy of the agent defined in {@code java.lang} as {@code internalName} (such classes
     * outlive a detach), or the class file the build renamed for it, which the jar holds as the resource
     * {@code classFileResource}, defined there now. Needs {@code java.lang} open to the agent.
     */
    public static Class<?> defineOrFindBuiltInJavaLang(String classFileResource, String internalName)
            throws ReflectiveOperationException, IOException {
        Class<?> earlier = definedInJavaLang(internalName);
        return earlier != null ? earlier : define(resourceBytes(classFileResource));
    }

    private static Class<?> definedInJavaLang(String internalName) {
        try {
            return Class.forName(internalName.replace('/', '.'), false, null);
        } catch (ClassNotFoundException notYetDefined) {
            return null;
        }
    }

    private static Class<?> define(byte[] classFile) throws IllegalAccessException {
        return MethodHandles.privateLookupIn(Object.class, MethodHandles.lookup()).defineClass(classFile);
    }

    /**
     * The class file of the agent's class {@code sourceInternalName}, as the agent jar holds it. Public for the build's
     * generators, which rename it as the run time would.
     */
    public static byte[] sourceBytes(String sourceInternalName) throws IOException {
        return resourceBytes(sourceInternalName + ".class");
    }

    private static byte[] resourceBytes(String resource) throws IOException {
        try (InputStream in = BootClock.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException(resource + " is missing from the agent jar");
            }
            return in.readAllBytes();
        }
    }
}
