package io.clockagent.agent.internal;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;

/**
 * The failure boundary between the JVM's class loading and the rewriter: decides which classes to rewrite, and
 * makes sure that a class the rewriter cannot handle loads unchanged and is reported once. Called concurrently by
 * every thread that loads classes. In a dry run it finds and counts the sites but hands every class back unchanged;
 * otherwise the first class in scope starts defining the cached clock, and the first class it rewrites, once the
 * clock is defined, starts the ticker. It also passes on another copy's request to detach ({@link ActiveCopy}).
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
    /** Set once installed; until then a request to detach finds nothing to close. */
    private volatile Installation installation;

    /** @param clock and {@code ticker}: null for a dry run */
    CallSiteTransformer(RewriteScope scope, String clockInternalName, AgentLog log, boolean verbose,
            DeferredBootClock clock, Ticker ticker, RewriteCounters counters) {
        this.scope = scope;
        this.rewriter = new CallSiteRewriter(clockInternalName, counters.countsSites());
        this.log = log;
        this.verbose = verbose;
        this.clock = clock;
        this.ticker = ticker;
        this.dryRun = ticker == null;
        this.counters = counters;
    }

    void servedBy(Installation serving) {
        installation = serving;
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> classBeingRedefined,
            ProtectionDomain protectionDomain, byte[] classFile) {
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
            counters.scanned();
            RewrittenClass rewritten = rewriter.rewrite(classFile);
            return rewritten == null ? null : handOver(className, rewritten);
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
    private byte[] handOver(String className, RewrittenClass rewritten) {
        CachedClockWriter clockToTick = dryRun ? null : clock.writer();
        if (clockToTick == null && !dryRun) {
            return null;
        }
        String binaryName = className.replace('/', '.');
        counters.rewritten(binaryName, rewritten);
        if (verbose) {
            log.line((dryRun ? "would rewrite " : "rewrote ") + binaryName + ": " + rewritten.callSites()
                    + " call sites, " + rewritten.methodReferences() + " method references");
        }
        if (dryRun) {
            return null;
        }
        ticker.startOnce(clockToTick);
        return rewritten.bytes();
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
}
