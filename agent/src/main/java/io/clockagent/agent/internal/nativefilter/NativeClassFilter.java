package io.clockagent.agent.internal.nativefilter;

import io.clockagent.agent.internal.activecopy.ActiveCopy;
import io.clockagent.agent.internal.clock.BootClock;
import io.clockagent.agent.internal.log.AgentLog;
import io.clockagent.agent.internal.rewrite.HandOver;
import io.clockagent.agent.internal.rewrite.IgnoredPackages;
import io.clockagent.agent.internal.rewrite.PackageSelection;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.IllegalClassFormatException;
import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Hands class loading over from the Java transformer to the native class filter (agent/src/main/c/; on unless
 * {@code nativeFilter=false}), which turns away the classes the agent leaves unchanged before they reach Java and
 * rewrites the others itself.
 *
 * <p>While any Java transformer is registered, every class load costs a copy of its bytes into a new Java array and a
 * call into Java, and the agent's check and rewriter run interpreted until the JIT has compiled them. The Java
 * transformer serves from startup; the hand-over runs once the cached clock is defined, on the thread that defined
 * it, so that a JVM loading nothing in scope pays nothing for it. The native filter starts before the Java
 * transformer steps aside, so no class load falls between them, and it asks the Java side about each thread's first
 * class, which may have passed the Java transformer just before, so that none is counted or rewritten twice. Built
 * for Linux on x86-64 and aarch64 ({@link NativeLibraries}); elsewhere, or where the library cannot load, the Java
 * transformer goes on alone, slower to start but rewriting the same classes. Only a filter the user asked for
 * ({@code nativeFilter=true}) says why it did not start: by default the banner is the agent's only line.
 */
public final class NativeClassFilter implements Runnable {

    private static final String INTERNAL_NAME = "java/lang/ClockAgentNativeFilterLibrary";
    private static final String SOURCE_INTERNAL_NAME = "io/clockagent/agent/bootstrap/NativeFilterLibrary";
    private static final String NOT_STARTED = "native class filter not started, filtering in Java: ";

    private final Instrumentation instrumentation;
    private final HandOver javaSide;
    private final PackageSelection packages;
    /** Null with {@code jmx=false}. */
    private final ClassFileTransformer jmxWaiter;
    private final String jmxWaitsFor;
    private final NativeFilterStatus status;
    private final AgentLog log;
    private final boolean requested;
    /** This JVM's platform, as {@link NativeLibraries} names the library folders. */
    private final String platform;
    /** Guarded by this. */
    private boolean started;
    /** Guarded by this. */
    private boolean closed;

    private NativeClassFilter(Instrumentation instrumentation, HandOver javaSide, PackageSelection packages,
            ClassFileTransformer jmxWaiter, String jmxWaitsFor, NativeFilterStatus status, AgentLog log,
            boolean requested, String platform) {
        this.instrumentation = instrumentation;
        this.javaSide = javaSide;
        this.packages = packages;
        this.jmxWaiter = jmxWaiter;
        this.jmxWaitsFor = jmxWaitsFor;
        this.status = status;
        this.log = log;
        this.requested = requested;
        this.platform = platform;
    }

    /**
     * The filter for this JVM's platform. Whether the agent jar carries a library for it is found at the hand-over,
     * so that a JVM that never loads a class in scope never looks.
     *
     * @param javaSide the Java transformer, which the filter takes over from and passes some classes back to
     * @param jmxWaiter the transformer that waits for JMX to start, which the filter takes over from as well (as long
     *     as any Java transformer is registered, the JVM copies every class file into a Java array for it), or null
     * @param jmxWaitsFor the class from the boot loader that the JMX waiter is shown
     * @param requested whether {@code nativeFilter=true} was given, so that a filter that cannot start says why
     */
    public static NativeClassFilter forThisPlatform(Instrumentation instrumentation, HandOver javaSide,
            PackageSelection packages, ClassFileTransformer jmxWaiter, String jmxWaitsFor, NativeFilterStatus status,
            AgentLog log, boolean requested) {
        return new NativeClassFilter(instrumentation, javaSide, packages, jmxWaiter, jmxWaitsFor, status, log,
                requested, NativeLibraries.thisPlatform());
    }

    /**
     * Called by the library for the classes it passes on: the JDK's MBean server class, from the boot loader, goes to
     * the JMX waiter, everything else to the transformer.
     */
    byte[] filtered(ClassLoader loader, String className, byte[] classFile) throws IllegalClassFormatException {
        if (loader == null) {
            return jmxWaiter.transform(null, null, className, null, null, classFile);
        }
        return javaSide.passedOn(loader, className, classFile);
    }

    /** Called by the library, once per thread, at the hand-over; see {@link HandOver#examinedLast}. */
    boolean examinedByJava(ClassLoader loader, String className) {
        return javaSide.examinedLast(loader, className);
    }

    /**
     * The hand-over; where it cannot happen, leaves the Java transformer serving and, if the filter was asked for,
     * says why once, in one line.
     */
    @Override
    public synchronized void run() {
        if (closed) {
            return;
        }
        try {
            if (!carriesLibrary()) {
                // Before anything is defined in java.lang for a library that is not there.
                refused("the agent jar carries no library for " + platform);
                return;
            }
            String notBound = bind(MethodHandles.privateLookupIn(
                    BootClock.defineOrFindInJavaLang(SOURCE_INTERNAL_NAME, INTERNAL_NAME), MethodHandles.lookup()));
            if (notBound != null) {
                refused(notBound);
                return;
            }
            long scannedBefore = LibraryCalls.classesScanned();
            long rewrittenBefore = LibraryCalls.classesRewritten();
            String notStarted = LibraryCalls.start(this, ClassLoader.getPlatformClassLoader(),
                    NativeClassFilter.class.getClassLoader(), packages.includePrefixes(), packages.excludePrefixes(),
                    packages.cachedInstantsPrefixes(), IgnoredPackages.prefixes(),
                    jmxWaiter == null ? new String[] {ActiveCopy.DETACH_SIGNAL}
                            : new String[] {ActiveCopy.DETACH_SIGNAL, jmxWaitsFor},
                    BootClock.INTERNAL_NAME, javaSide.countsSites());
            if (notStarted != null) {
                refused(notStarted);
                return;
            }
            started = true;
            javaSide.stepAside();
            status.tookOver(scannedBefore, rewrittenBefore);
            instrumentation.removeTransformer(javaSide);
            if (jmxWaiter != null) {
                instrumentation.removeTransformer(jmxWaiter);
            }
        } catch (Throwable failure) {
            refused(failure.toString());
        }
    }

    /** Records why the Java transformer goes on serving, for the MBean, and says so if the filter was asked for. */
    private void refused(String why) {
        status.refused(why);
        if (requested) {
            log.line(NOT_STARTED + why);
        }
    }

    /** Called by the library before the first class it rewrites itself. */
    void rewritingNatively() {
        javaSide.rewritingNatively();
    }

    /** Called by the library, only while sites are counted, for each class it has rewritten itself. */
    void rewroteNatively(String className, byte[] original) {
        javaSide.rewroteNatively(className, original);
    }

    /** Called by the library, only while sites are counted, for each class it left with reads of instants direct. */
    void leftInstantReadsNatively(String className, byte[] original) {
        javaSide.leftInstantReadsNatively(className, original);
    }

    /** Stops the native filter if it took over, and keeps it from taking over later. */
    public synchronized void close() {
        closed = true;
        if (started) {
            try {
                LibraryCalls.stop();
            } catch (Throwable failure) {
                log.line("could not stop the native class filter: " + failure);
            }
        }
    }

    /**
     * Binds {@link LibraryCalls} to the library, loading the library first if no earlier copy of the agent did.
     *
     * @return null once bound, else why not
     */
    private String bind(MethodHandles.Lookup filter) throws Throwable {
        MethodHandle bind = filter.findStatic(filter.lookupClass(), "bind",
                MethodType.methodType(String.class, Class.class));
        try {
            return (String) bind.invoke(LibraryCalls.class);
        } catch (UnsatisfiedLinkError notLoaded) {
            load(filter.findStatic(filter.lookupClass(), "load", MethodType.methodType(void.class, String.class)));
            return (String) bind.invoke(LibraryCalls.class);
        }
    }

    /** Loads the library from a private copy; {@link #run} has made sure the jar carries it. */
    private static void load(MethodHandle load) throws Throwable {
        File library = NativeLibraries.writePrivateCopy(NativeLibraries.jarOf(NativeClassFilter.class));
        try {
            load.invoke(library.getPath());
        } finally {
            NativeLibraries.deletePrivateCopy(library);
        }
    }

    private boolean carriesLibrary() throws IOException {
        // The agent's own loader serves its jar's entries as streams only.
        try (InputStream library = NativeClassFilter.class.getClassLoader()
                .getResourceAsStream(NativeLibraries.resource(platform))) {
            return library != null;
        }
    }
}
