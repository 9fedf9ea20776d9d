package io.clockagent.agent.internal;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;

/**
 * The failure boundary between the JVM's class loading and the rewriter: decides which classes to rewrite, and
 * makes sure that a class the rewriter cannot handle loads unchanged and is reported once. Called concurrently by
 * every thread that loads classes. In a dry run it finds and counts the sites but hands every class back unchanged;
 * otherwise the first class in scope starts defining the cached clock, and the first class it rewrites, once the
 * clock is defined, starts the ticker. It also passes on another copy's request to detach ({@link ActiveCopy}).
 * Where it can (by default; not with {@code nativeFilter=false}), the native class filter takes over once the clock
 * is defined and shows this transformer only the classes it does not handle itself ({@link NativeClassFilter}).
 */
final class CallSiteTransformer implements ClassFileTransformer {

    private final RewriteScope scope;
    private final CallSiteRewriter rewriter;
    private final AgentLog log;
    private final boolean verbose;
    private final DeferredBootClock clock;
    private final Ticker ticker;
    private final boolean dryRun;
    private final RewriteCounters counters;
    /** Set once the native class filter has taken over. */
    private volatile boolean retired;
    /**
     * The class this thread last examined, while a native filter may take over; null otherwise. Kept by identity
     * hash and name, so that a thread never holds on to an application class loader through it.
     */
    private final ThreadLocal<Examined> lastExamined;
    /** Set once installed; until then a request to detach finds nothing to close. */
    private volatile Installation installation;

    /**
     * @param clock and {@code ticker}: null for a dry run
     * @param nativeFilterMayTakeOver whether to keep what {@link #examinedLast} needs
     */
    CallSiteTransformer(RewriteScope scope, String clockInternalName, AgentLog log, boolean verbose,
            DeferredBootClock clock, Ticker ticker, RewriteCounters counters, boolean nativeFilterMayTakeOver) {
        this.scope = scope;
        this.rewriter = new CallSiteRewriter(clockInternalName);
        this.log = log;
        this.verbose = verbose;
        this.clock = clock;
        this.ticker = ticker;
        this.dryRun = ticker == null;
        this.counters = counters;
        this.lastExamined = nativeFilterMayTakeOver ? new ThreadLocal<>() : null;
    }

    void servedBy(Installation serving) {
        installation = serving;
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> classBeingRedefined,
            ProtectionDomain protectionDomain, byte[] classFile) {
        return retired ? null : examine(loader, className, classFile, true);
    }

    /**
     * Called by the native class filter, for a class in scope whose bytes name the clock method or for a request to
     * detach; it has counted the class as scanned already.
     */
    byte[] filtered(ClassLoader loader, String className, byte[] classFile) {
        return examine(loader, className, classFile, false);
    }

    /**
     * Whether the class this thread is loading is the one it last showed {@link #transform}: at the hand-over, the
     * native filter asks so for each thread's first class, which may have passed this transformer just before it
     * stepped aside, and must then not be counted or rewritten again.
     */
    boolean examinedLast(ClassLoader loader, String className) {
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

    /**
     * Starts the ticker, as the first class rewritten here does; for the native class filter, which rewrites classes
     * itself once it has taken over, whether or not this transformer rewrote one before.
     */
    void startTicker() {
        CachedClockWriter defined = clock.writer();
        if (defined != null) {
            ticker.startOnce(defined);
        }
    }

    /**
     * Stops {@link #transform} doing anything, once the native filter has started: until the JVM stops calling this
     * transformer, both would see the same classes.
     */
    void retire() {
        retired = true;
    }

    private byte[] examine(ClassLoader loader, String className, byte[] classFile, boolean countScanned) {
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
            if (countScanned) {
                counters.scanned();
                if (lastExamined != null) {
                    remember(loader, className);
                }
            }
            byte[] rewritten = rewriter.rewrite(classFile);
            return rewritten == null ? null : handOver(className, classFile, rewritten);
        } catch (Throwable failure) {
            reportOnce(className, failure);
            return null;
        }
    }

    /**
     * Counts a class found to need rewriting and returns the bytes the JVM should define, or null to keep the
     * original. Kept apart from {@link #transform}, which every class passes through: the JIT compiles that small
     * method alone instead of this rare path with it.
     */
    private byte[] handOver(String className, byte[] original, byte[] rewritten) {
        CachedClockWriter clockToTick = dryRun ? null : clock.writer();
        if (clockToTick == null && !dryRun) {
            return null;
        }
        counters.rewritten();
        if (counters.countsSites()) {
            showSites(className, original);
        }
        if (dryRun) {
            return null;
        }
        ticker.startOnce(clockToTick);
        return rewritten;
    }

    /**
     * Called by the native class filter, only while sites are counted, for each class it has rewritten itself: the
     * class's original bytes, which it rewrote as {@link CallSiteRewriter} would.
     */
    void rewrittenNatively(String className, byte[] original) {
        try {
            showSites(className, original);
        } catch (Throwable failure) {
            // Out of memory while counting: the class is rewritten all the same.
        }
    }

    /** Counts a rewritten class's sites for the report and the MBean, and prints them if asked. */
    private void showSites(String className, byte[] original) {
        String binaryName = className.replace('/', '.');
        RewrittenClass rewritten;
        try {
            rewritten = new RewrittenClass(binaryName, CallSiteRewriter.countSites(original));
        } catch (ClassFileException unreadable) {
            // A method body the JVM's verifier will refuse in turn; the rewrite did not touch it.
            log.line((dryRun ? "would rewrite " : "rewrote ") + binaryName + ", but cannot count its call sites: "
                    + unreadable.getMessage());
            return;
        }
        counters.sitesCounted(rewritten);
        if (verbose) {
            log.line((dryRun ? "would rewrite " : "rewrote ") + binaryName + ": " + rewritten.callSites()
                    + " call sites, " + rewritten.methodReferences() + " method references");
        }
    }

    private void detachAsAsked() {
        try {
            Installation serving = installation;
            if (serving != null) {
                serving.closeInBackground();
            }
        } catch (Throwable failure) {
            log.line("could not detach: " + failure);
        }
    }

    private void reportOnce(String className, Throwable failure) {
        try {
            if (counters.failed(className)) {
                String reason = failure instanceof ClassFileException ? failure.getMessage() : failure.toString();
                log.line("left " + className.replace('/', '.') + " unchanged: " + reason);
            }
        } catch (Throwable reportingFailed) {
            // Out of memory while reporting: the class still loads unchanged, which is what matters.
        }
    }

    /** One per thread, reused. */
    private static final class Examined {
        int loaderHash;
        String className;
    }
}
