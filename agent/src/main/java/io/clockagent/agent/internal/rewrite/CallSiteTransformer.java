package io.clockagent.agent.internal.rewrite;

import io.clockagent.agent.internal.activecopy.ActiveCopy;
import io.clockagent.agent.internal.classfile.CallSiteRewriter;
import io.clockagent.agent.internal.classfile.ClassFileException;
import io.clockagent.agent.internal.classfile.NewerFormatException;
import io.clockagent.agent.internal.clock.CachedClockWriter;
import io.clockagent.agent.internal.clock.DeferredBootClock;
import io.clockagent.agent.internal.clock.Ticker;
import io.clockagent.agent.internal.log.AgentLog;
import java.security.ProtectionDomain;

/**
 * The failure boundary between the JVM's class loading and the rewriter: decides which classes to rewrite, and
 * makes sure that a class the rewriter cannot handle loads unchanged and is reported once (one of a class file format
 * newer than the rewriter can read: once for the whole run, by the first such class). Called concurrently by
 * every thread that loads classes. In a dry run it finds and counts the sites but hands every class back unchanged;
 * otherwise the first class in scope starts defining the cached clock, and the first class it rewrites, once the
 * clock is defined, starts the ticker. It also passes on another copy's request to detach ({@link ActiveCopy}).
 * Where it can (by default; not with {@code nativeFilter=false}), the native class filter takes over once the clock
 * is defined and shows this transformer only the classes it does not handle itself ({@link HandOver}).
 */
public final class CallSiteTransformer implements HandOver {

    private final RewriteScope scope;
    private final String clockInternalName;
    /**
     * Made by the first class in scope, so that a JVM that loads none never loads the rewriter's classes. Its one field
     * is final, so a thread that finds it made by another sees it whole; two threads may each make one, alike.
     */
    private CallSiteRewriter rewriter;
    private final AgentLog log;
    /** Null unless sites are counted. */
    private final RewrittenSites sites;
    private final DeferredBootClock clock;
    private final Ticker ticker;
    private final boolean dryRun;
    private final RewriteCounters counters;
    /** Closed when another copy asks this one to detach. */
    private final AutoCloseable detach;
    /** Set once the native class filter has taken over. */
    private volatile boolean steppedAside;
    /**
     * The thread that retransforms the loaded classes in scope for this copy while it does ({@link #retransformLoaded}),
     * whose classes this transformer sees for the first time; any other retransformation is another agent's, of a
     * class seen before.
     */
    private volatile Thread retransformingLoaded;
    /**
     * The class this thread last examined, while a native filter may take over; null otherwise. Kept by identity
     * hash and name, so that a thread never holds on to an application class loader through it.
     */
    private final ThreadLocal<Examined> lastExamined;

    /**
     * @param clock and {@code ticker}: null for a dry run
     * @param nativeFilterMayTakeOver whether to keep what {@link #examinedLast} needs
     * @param detach closed, on a thread of its own, when another copy asks this one to detach
     */
    public CallSiteTransformer(RewriteScope scope, String clockInternalName, AgentLog log, boolean verbose,
            DeferredBootClock clock, Ticker ticker, RewriteCounters counters, boolean nativeFilterMayTakeOver,
            AutoCloseable detach) {
        this.scope = scope;
        this.clockInternalName = clockInternalName;
        this.log = log;
        this.clock = clock;
        this.ticker = ticker;
        this.dryRun = ticker == null;
        this.counters = counters;
        // Built only where sites are counted, so that a JVM with the defaults never loads its class.
        this.sites = counters.countsSites() ? new RewrittenSites(scope.packages(), counters, log, verbose, dryRun) : null;
        this.lastExamined = nativeFilterMayTakeOver ? new ThreadLocal<>() : null;
        this.detach = detach;
    }

    /**
     * A class another agent retransforms comes here again, from the bytes it was loaded from: it is rewritten again,
     * as the rewrite would otherwise be lost, but counted and shown once, as the service has it once.
     */
    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> classBeingRedefined,
            ProtectionDomain protectionDomain, byte[] classFile) {
        boolean firstSight = classBeingRedefined == null || Thread.currentThread() == retransformingLoaded;
        return steppedAside ? null : examine(loader, className, classFile, true, firstSight);
    }

    @Override
    public byte[] passedOn(ClassLoader loader, String className, byte[] classFile) {
        return examine(loader, className, classFile, false, true);
    }

    /**
     * Runs this copy's retransformation of the classes in scope loaded before it, on this thread: each is this
     * transformer's first sight of the class, counted as a class loading is.
     */
    public void retransformLoaded(Runnable retransformation) {
        retransformingLoaded = Thread.currentThread();
        try {
            retransformation.run();
        } finally {
            retransformingLoaded = null;
        }
    }

    @Override
    public boolean examinedLast(ClassLoader loader, String className) {
        Examined examined = lastExamined == null ? null : lastExamined.get();
        return examined != null && examined.loaderHash == System.identityHashCode(loader)
                && examined.className.equals(className);
    }

    private void remember(ClassLoader loader, String className) {
        Examined examined = lastExamined.get();
        if (examined == null) {
            examined = new Examined();
            lastExamined.set(examined);
        }
        examined.loaderHash = System.identityHashCode(loader);
        examined.className = className;
    }

    @Override
    public boolean countsSites() {
        return counters.countsSites();
    }

    /** Starts the ticker, as the first class rewritten here does, whether or not this transformer rewrote any. */
    @Override
    public void rewritingNatively() {
        CachedClockWriter defined = clock.writer();
        if (defined != null) {
            ticker.startOnce(defined);
        }
    }

    @Override
    public void stepAside() {
        steppedAside = true;
    }

    /**
     * @param countScanned false for a class the native filter passed on, which it counted
     * @param firstSight false for a class another agent retransforms, counted and shown when it loaded
     */
    private byte[] examine(ClassLoader loader, String className, byte[] classFile, boolean countScanned,
            boolean firstSight) {
        if (!scope.includes(loader, className)) {
            if (ActiveCopy.isDetachSignal(loader, className)) {
                detachAsAsked();
            }
            return null;
        }
        try {
            if (clock != null) {
                clock.defineSoon();
            }
            if (countScanned && firstSight) {
                counters.scanned();
                if (lastExamined != null) {
                    remember(loader, className);
                }
            }
            byte[] rewritten = rewriter().rewrite(classFile, scope.packages().cachedInstants(className));
            if (rewritten == null) {
                if (sites != null && firstSight) {
                    sites.showInstantReadsLeft(className, classFile);
                }
                return null;
            }
            return toDefine(className, classFile, rewritten, firstSight);
        } catch (Throwable failure) {
            reportOnce(className, failure);
            return null;
        }
    }

    private CallSiteRewriter rewriter() {
        CallSiteRewriter made = rewriter;
        if (made == null) {
            made = new CallSiteRewriter(clockInternalName);
            rewriter = made;
        }
        return made;
    }

    /**
     * Counts a class found to need rewriting, where this is its first sight, and returns the bytes the JVM should
     * define, or null to keep the original. Kept apart from {@link #transform}, which every class passes through: the JIT compiles that small
     * method alone instead of this rare path with it.
     */
    private byte[] toDefine(String className, byte[] original, byte[] rewritten, boolean firstSight) {
        CachedClockWriter clockToTick = dryRun ? null : clock.writer();
        if (clockToTick == null && !dryRun) {
            return null;
        }
        if (firstSight) {
            counters.rewritten();
            if (counters.countsSites()) {
                sites.show(className, original);
            }
        }
        if (dryRun) {
            return null;
        }
        ticker.startOnce(clockToTick);
        return rewritten;
    }

    @Override
    public void rewroteNatively(String className, byte[] original) {
        try {
            sites.show(className, original);
        } catch (Throwable failure) {
            // Out of memory while counting: the class is rewritten all the same.
        }
    }

    @Override
    public void leftInstantReadsNatively(String className, byte[] original) {
        try {
            sites.showInstantReadsLeft(className, original);
        } catch (Throwable failure) {
            // Out of memory while counting: nothing changes but the count.
        }
    }

    /**
     * Detaches on a thread of its own: the loading thread must not wait for the ticker, and a retransformation started
     * from inside a transformer would not be shown to any transformer.
     */
    private void detachAsAsked() {
        try {
            Thread detaching = new Thread(new Detaching(detach, log), "clock-agent-detach");
            detaching.setDaemon(true);
            detaching.setContextClassLoader(null);
            detaching.start();
        } catch (Throwable failure) {
            log.line("could not detach: " + failure);
        }
    }

    private void reportOnce(String className, Throwable failure) {
        try {
            boolean newerFormat = failure instanceof NewerFormatException;
            if (newerFormat ? counters.failedInNewerFormat(className) : counters.failed(className)) {
                String reason = failure instanceof ClassFileException ? failure.getMessage() : failure.toString();
                log.line("left " + className.replace('/', '.') + " unchanged: " + reason
                        + (newerFormat ? "; later classes like it load unchanged without another line" : ""));
            }
        } catch (Throwable reportingFailed) {
            // Out of memory while reporting: the class still loads unchanged, which is what matters.
        }
    }

    /** Loaded only when another copy asks to detach. */
    private static final class Detaching implements Runnable {
        private final AutoCloseable detach;
        private final AgentLog log;

        Detaching(AutoCloseable detach, AgentLog log) {
            this.detach = detach;
            this.log = log;
        }

        @Override
        public void run() {
            try {
                detach.close();
            } catch (Throwable failure) {
                log.line("could not detach: " + failure);
            }
        }
    }

    /** One per thread, reused. */
    private static final class Examined {
        int loaderHash;
        String className;
    }
}
