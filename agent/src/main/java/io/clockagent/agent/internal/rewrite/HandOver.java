package io.clockagent.agent.internal.rewrite;

import java.lang.instrument.ClassFileTransformer;

/**
 * The Java transformer as the native class filter sees it when it takes over: once started, the native filter turns
 * away the classes the agent leaves unchanged, rewrites most of the others itself, and passes the rest back here.
 */
public interface HandOver extends ClassFileTransformer {

    /**
     * Whether the class this thread is loading is the one it last showed the Java transformer: at the hand-over, the
     * native filter asks so for each thread's first class, which may have passed the Java transformer just before it
     * stepped aside, and must then not be counted or rewritten again.
     */
    boolean examinedLast(ClassLoader loader, String className);

    /**
     * Stops the Java transformer doing anything, once the native filter has started: until the JVM stops calling it,
     * both would see the same classes.
     */
    void stepAside();

    /**
     * A class in scope whose bytes name the clock method, or another copy's request to detach, which the native
     * filter has counted as scanned already.
     *
     * @return the bytes to define, or null to keep the class as it is
     */
    byte[] passedOn(ClassLoader loader, String className, byte[] classFile);

    /** Whether sites are counted, and so whether {@link #rewroteNatively} wants to be shown each class. */
    boolean countsSites();

    /** Called before the first class the native filter rewrites itself: starts the ticker. */
    void rewritingNatively();

    /**
     * Called only while sites are counted, for each class the native filter has rewritten itself: the class's original
     * bytes, which it rewrote as {@link io.clockagent.agent.internal.classfile.CallSiteRewriter} would.
     */
    void rewroteNatively(String className, byte[] original);

    /**
     * Called only while sites are counted, for each class in scope the native filter left as it was that keeps
     * java.time reads of instants direct (see {@code cachedInstants}): the class's bytes.
     */
    void leftInstantReadsNatively(String className, byte[] original);
}
