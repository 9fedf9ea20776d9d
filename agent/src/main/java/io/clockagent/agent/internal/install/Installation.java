package io.clockagent.agent.internal.install;

import io.clockagent.agent.internal.activecopy.ActiveCopy;
import io.clockagent.agent.internal.clock.BootClock;
import io.clockagent.agent.internal.clock.CachedClockWriter;
import io.clockagent.agent.internal.clock.DeferredBootClock;
import io.clockagent.agent.internal.clock.Ticker;
import io.clockagent.agent.internal.diagnostics.ExitReport;
import io.clockagent.agent.internal.diagnostics.MBeanPublisher;
import io.clockagent.agent.internal.log.AgentLog;
import io.clockagent.agent.internal.options.AgentOptions;
import io.clockagent.agent.internal.rewrite.CallSiteTransformer;
import io.clockagent.agent.internal.rewrite.ClassLoadSignals;
import io.clockagent.agent.internal.rewrite.RewriteCounters;
import io.clockagent.agent.internal.rewrite.RewriteScope;
import io.clockagent.agent.internal.rewrite.RewrittenSites;
import java.lang.invoke.MethodHandles;

/**
 * A running agent, whichever way it started: built from the options, it holds the counters, the sites of the classes
 * rewritten (for {@code verbose} and the report), the ticker, the MBean, the report at exit and the detach. What
 * differs between the starts is its {@link ClassRewriting}: the native library's C hook, or, where the library cannot
 * serve, the Java transformer ({@link TransformerRewriting}). Uses nothing of {@code java.instrument}, which a runtime
 * started through the library may lack.
 *
 * <p>The class filter tells it what class loading signals ({@link ClassLoadSignals}). The C hook calls those methods,
 * and {@link #clockDefined}, {@link #rewroteNatively} and {@link #leftInstantReadsNatively}, by name through JNI on
 * the object {@code NativeEntry.start} returns, which is this: {@link #clockDefined} at most once, the other two only
 * where sites are counted. The detach runs once, on a thread of its own.
 */
public final class Installation implements ClassLoadSignals, Runnable {

    /** The banner this copy printed and claimed the JVM with, which the detach gives up last. */
    private final String banner;
    private final AgentLog log;
    private final ClassRewriting rewriting;
    private final RewriteCounters counters;
    /** Null unless sites are counted. */
    private final RewrittenSites sites;
    /** Null in a dry run, which starts none. */
    private final Ticker ticker;
    /** Null with {@code jmx=false}. */
    private final MBeanPublisher mbean;
    /** Guarded by this. */
    private boolean detached;

    /**
     * Builds the agent's parts and registers the report at exit; the caller has claimed the JVM with {@code banner}.
     */
    public Installation(ClassRewriting rewriting, AgentOptions options, String banner, String clocksource,
            AgentLog log) {
        this.rewriting = rewriting;
        this.banner = banner;
        this.log = log;
        counters = new RewriteCounters(options.countsSites(), options.reportFile() != null);
        // Built only where sites are counted, so that a JVM with the defaults never loads its class.
        sites = options.countsSites() ? new RewrittenSites(options.packages(), counters, log, options.verbose(),
                options.dryRun()) : null;
        ticker = options.dryRun() ? null : Ticker.prepare(null, options.tickNanos(), options.waitStrategy(),
                options.monotonic(), options.cachePolicy());
        mbean = options.jmx() ? new MBeanPublisher(options, counters, rewriting, ticker, clocksource, log) : null;
        if (options.reportSummary() || options.reportFile() != null) {
            Thread reporter = new Thread(new ExitReport(options, counters, rewriting, ticker, log), "clock-agent-report");
            reporter.setContextClassLoader(null);
            Runtime.getRuntime().addShutdownHook(reporter);
        }
    }

    /** The Java transformer over this agent's counters, sites and ticker, which signals to this. */
    CallSiteTransformer transformer(RewriteScope scope, DeferredBootClock clock) {
        return new CallSiteTransformer(scope, BootClock.INTERNAL_NAME, log, clock, ticker, counters, sites, this);
    }

    /** The clock the C hook defined in {@code java.lang}, with its own lookup, which only the C half can take. */
    void clockDefined(Class<?> clockClass, MethodHandles.Lookup clockAccess) {
        ticker.startOnce(new CachedClockWriter(clockClass, clockAccess));
    }

    /** A class the C hook rewrote (in a dry run: would have), with its original bytes. */
    void rewroteNatively(String className, byte[] original) {
        try {
            sites.show(className, original);
        } catch (Throwable failure) {
            // Out of memory while counting: the class is rewritten all the same.
        }
    }

    /** A class in scope the C hook left as it was that keeps java.time reads of instants direct. */
    void leftInstantReadsNatively(String className, byte[] original) {
        try {
            sites.showInstantReadsLeft(className, original);
        } catch (Throwable failure) {
            // Out of memory while counting: nothing changes but the count.
        }
    }

    @Override
    public void jmxStarting() {
        if (mbean != null) {
            mbean.startRegistering();
        }
    }

    /**
     * On a thread of its own: the loading thread must not wait for the ticker, and a retransformation started from
     * inside a Java transformer would not be shown to any transformer.
     */
    @Override
    public void detachRequested() {
        try {
            Thread detaching = new Thread(this, "clock-agent-detach");
            detaching.setDaemon(true);
            detaching.setContextClassLoader(null);
            detaching.start();
        } catch (Throwable failure) {
            log.line("could not detach: " + failure);
        }
    }

    /**
     * The detach: the MBean unregistered, the ticker stopped, so that any read still redirected takes the direct
     * clock, the original code restored, and the claim on the JVM given up last, which the asking copy waits for.
     * Once; a second request does nothing more.
     */
    @Override
    public void run() {
        synchronized (this) {
            if (detached) {
                return;
            }
            detached = true;
        }
        try {
            if (mbean != null) {
                mbean.unregister();
            }
            if (ticker != null) {
                ticker.close();
            }
            int restored = rewriting.restore();
            log.note("detached: ticker stopped, original code restored in " + restored + " classes");
        } catch (RuntimeException | Error failure) {
            log.line("could not detach: " + failure);
        } finally {
            ActiveCopy.release(banner);
        }
    }
}
