package io.clockagent.agent.internal.rewrite;

import io.clockagent.agent.internal.activecopy.ActiveCopy;
import io.clockagent.agent.internal.classfile.CallSiteRewriter;
import io.clockagent.agent.internal.classfile.ClassFileException;
import io.clockagent.agent.internal.classfile.ClockMethods;
import io.clockagent.agent.internal.classfile.NewerFormatException;
import io.clockagent.agent.internal.clock.CachedClockWriter;
import io.clockagent.agent.internal.clock.DeferredBootClock;
import io.clockagent.agent.internal.clock.Ticker;
import io.clockagent.agent.internal.log.AgentLog;
import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The failure boundary between the JVM's class loading and the rewriter: decides which classes to rewrite, and
 * makes sure that a class the rewriter cannot handle loads unchanged and is reported once (one of a class file format
 * newer than the rewriter can read: once for the whole run, by the first such class). Called concurrently by
 * every thread that loads classes. In a dry run it finds and counts the sites but hands every class back unchanged;
 * otherwise the first class in scope starts defining the cached clock, and the first class it rewrites, once the
 * clock is defined, starts the ticker. It also passes on what class loading signals to the agent
 * ({@link ClassLoadSignals}): JMX starting, and another copy's request to detach ({@link ActiveCopy}).
 */
public final class CallSiteTransformer implements ClassFileTransformer {

    /** How long {@link #close} waits between two looks at the calls in scope still running. */
    private static final long RUNNING_POLL_NANOS = 100_000;

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
    private final ClassLoadSignals signals;
    /** Null where no clock method but the JDK's is redirected. */
    private final ClockClassLoads clockClassLoads;
    /**
     * The thread that retransforms the loaded classes in scope for this copy while it does ({@link #retransformLoaded}),
     * whose classes this transformer sees for the first time; any other retransformation is another agent's, of a
     * class seen before.
     */
    private volatile Thread retransformingLoaded;
    /**
     * Set by {@link #close}, which then waits for the calls in scope that read it unset: each is counted in
     * {@code transformsRunning} before it reads this, and the close sets this before it reads the count.
     */
    private volatile boolean closed;
    private final AtomicInteger transformsRunning = new AtomicInteger();
    private final OpenDefinitions openDefinitions = new OpenDefinitions();
    /** What this copy's own retransformation saw, until it is settled; touched by its thread alone. */
    private final List<HeldSight> heldSights = new ArrayList<>();

    /**
     * @param clock and {@code ticker}: null for a dry run
     * @param sites null unless sites are counted
     */
    public CallSiteTransformer(RewriteScope scope, String clockInternalName, AgentLog log, DeferredBootClock clock,
            Ticker ticker, RewriteCounters counters, RewrittenSites sites, ClassLoadSignals signals) {
        this.scope = scope;
        this.clockInternalName = clockInternalName;
        this.log = log;
        this.clock = clock;
        this.ticker = ticker;
        this.dryRun = ticker == null;
        this.counters = counters;
        this.sites = sites;
        this.signals = signals;
        ClockMethods clocks = scope.packages().clockMethods();
        this.clockClassLoads = clocks.isEmpty() ? null : new ClockClassLoads(clocks, log);
    }

    /**
     * A class another agent retransforms comes here again, from the bytes it was loaded from: it is rewritten again,
     * as the rewrite would otherwise be lost, but counted and shown once, as the service has it once.
     */
    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> classBeingRedefined,
            ProtectionDomain protectionDomain, byte[] classFile) {
        if (clockClassLoads != null && className != null && classBeingRedefined == null) {
            sayIfAClockClass(className, classFile);
        }
        if (!scope.includes(loader, className)) {
            signalled(loader, className);
            return null;
        }
        transformsRunning.incrementAndGet();
        try {
            return closed ? null : transformInScope(className, classBeingRedefined, classFile);
        } finally {
            transformsRunning.decrementAndGet();
        }
    }

    private byte[] transformInScope(String className, Class<?> classBeingRedefined, byte[] classFile) {
        try {
            if (clock != null) {
                clock.defineSoon();
            }
            HeldSight held = classBeingRedefined != null && Thread.currentThread() == retransformingLoaded
                    ? hold(className, classFile) : null;
            boolean firstSight = classBeingRedefined == null || held != null;
            if (classBeingRedefined == null) {
                counters.scanned();
            }
            byte[] rewritten = rewriter().rewrite(classFile, scope.packages().cachedInstants(className));
            if (rewritten == null) {
                if (held != null) {
                    held.instantReadsLeft = true;
                } else if (sites != null && firstSight) {
                    sites.showInstantReadsLeft(className, classFile);
                }
                return null;
            }
            return toDefine(className, classFile, rewritten, firstSight, held);
        } catch (Throwable failure) {
            reportOnce(className, failure);
            return null;
        }
    }

    /**
     * Once this is removed from the JVM's transformers: hands no more bytes back, and returns when no class is still
     * being defined from bytes it handed back, so that the loaded classes a detach then restores hold them all, or
     * after {@link OpenDefinitions#WAIT_MOST_SECONDS} at most.
     *
     * @return the line, after the agent's prefix, that says how many were still under way then; null for none
     */
    public String close() {
        closed = true;
        long deadlineNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(OpenDefinitions.WAIT_MOST_SECONDS);
        while (transformsRunning.get() != 0 && System.nanoTime() - deadlineNanos < 0) {
            LockSupport.parkNanos(RUNNING_POLL_NANOS);
        }
        int underWay = transformsRunning.get() + openDefinitions.awaitClosed(deadlineNanos);
        return underWay == 0 ? null
                : String.format(OpenDefinitions.UNDER_WAY_FORMAT, underWay, OpenDefinitions.WAIT_MOST_SECONDS);
    }

    /** What became of the classes of the clock methods redirected so far. */
    public ClockClasses clockClasses() {
        return clockClassLoads == null ? ClockClasses.NONE : clockClassLoads.clockClasses();
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

    private void sayIfAClockClass(String className, byte[] classFile) {
        try {
            clockClassLoads.loading(className, classFile);
        } catch (Throwable sayingFailed) {
            // Out of memory while saying so: the class still loads as it is, which is what matters.
        }
    }

    /** A class out of scope: JMX starting, or another copy's request to detach, are passed on. */
    private void signalled(ClassLoader loader, String className) {
        if (loader == null && ClassLoadSignals.MBEAN_SERVER_CLASS.equals(className)) {
            signals.jmxStarting();
        } else if (ActiveCopy.isDetachSignal(loader, className)) {
            signals.detachRequested();
        }
    }

    private CallSiteRewriter rewriter() {
        CallSiteRewriter made = rewriter;
        if (made == null) {
            made = new CallSiteRewriter(clockInternalName, scope.packages().clockMethods());
            rewriter = made;
        }
        return made;
    }

    /**
     * Counts a class found to need rewriting and returns the bytes the JVM should define, or null to keep the
     * original. Kept apart from {@link #transform}, which every class passes through: the JIT compiles that small
     * method alone instead of this rare path with it.
     */
    private byte[] toDefine(String className, byte[] original, byte[] rewritten, boolean firstSight,
            HeldSight held) {
        CachedClockWriter clockToTick = dryRun ? null : clock.writer();
        if (clockToTick == null && !dryRun) {
            return null;
        }
        if (held != null) {
            held.rewritten = true;
        } else if (firstSight) {
            countRewritten(className, original);
        }
        if (dryRun) {
            return null;
        }
        ticker.startOnce(clockToTick);
        openDefinitions.opened();
        return rewritten;
    }

    private void countRewritten(String className, byte[] original) {
        counters.rewritten();
        if (clockClassLoads != null) {
            clockClassLoads.redirectedIn(original);
        }
        if (sites != null) {
            sites.show(className, original);
        }
    }

    private HeldSight hold(String className, byte[] classFile) {
        HeldSight held = new HeldSight(className, classFile);
        heldSights.add(held);
        return held;
    }

    /**
     * After each retransformation of this copy's own ({@link #retransformLoaded}), on its thread: counts and shows
     * what it held back of the classes, where the JVM retransformed them, or drops it where it refused them, which the
     * one-by-one retry of a refused batch then shows again.
     */
    public void settleRetransformation(boolean retransformed) {
        if (retransformed) {
            for (HeldSight held : heldSights) {
                counters.scanned();
                if (held.rewritten) {
                    countRewritten(held.className, held.original);
                } else if (held.instantReadsLeft && sites != null) {
                    sites.showInstantReadsLeft(held.className, held.original);
                }
            }
        }
        heldSights.clear();
    }

    private void reportOnce(String className, Throwable failure) {
        try {
            boolean newerFormat = failure instanceof NewerFormatException;
            if (newerFormat ? counters.failedInNewerFormat(className) : counters.failed(className)) {
                String reason = failure instanceof ClassFileException ? failure.getMessage() : failure.toString();
                log.note("left " + className.replace('/', '.') + " unchanged: " + reason
                        + (newerFormat ? "; later classes like it load unchanged without another line" : ""));
            }
        } catch (Throwable reportingFailed) {
            // Out of memory while reporting: the class still loads unchanged, which is what matters.
        }
    }

    /** A class this copy's own retransformation showed the transformer, held back with its original bytes. */
    private static final class HeldSight {

        final String className;
        final byte[] original;
        boolean rewritten;
        boolean instantReadsLeft;

        HeldSight(String className, byte[] original) {
            this.className = className;
            this.original = original;
        }
    }
}
