package io.clockagent.agent.internal.install;

import io.clockagent.agent.internal.activecopy.ActiveCopy;
import io.clockagent.agent.internal.clock.BootClock;
import io.clockagent.agent.internal.clock.DeferredBootClock;
import io.clockagent.agent.internal.clock.Ticker;
import io.clockagent.agent.internal.diagnostics.ExitReport;
import io.clockagent.agent.internal.diagnostics.JmxRegistration;
import io.clockagent.agent.internal.diagnostics.MBeanPublisher;
import io.clockagent.agent.internal.log.AgentLog;
import io.clockagent.agent.internal.nativefilter.NativeClassFilter;
import io.clockagent.agent.internal.nativefilter.NativeFilterStatus;
import io.clockagent.agent.internal.options.AgentOptions;
import io.clockagent.agent.internal.rewrite.CallSiteTransformer;
import io.clockagent.agent.internal.rewrite.RewriteCounters;
import io.clockagent.agent.internal.rewrite.RewriteScope;
import java.lang.instrument.Instrumentation;

/**
 * A running agent: every part of it, built here from the options, started, and closed on request. Closing stops
 * rewriting, restores the original code of the classes loaded so far, stops the ticker so that any read still
 * redirected goes to the direct clock, and gives up the claim to be this JVM's active copy. Closing twice does
 * nothing more.
 *
 * <p>The parts that a dry run, {@code jmx=false} or {@code nativeFilter=false} leaves out are null. Two links run
 * against the order of construction, so they go through this object: the clock, once defined, starts the hand-over
 * to the native filter, which is built only then, off the startup path ({@link #run}); and the transformer, built
 * before this object is complete, closes it when another copy asks ({@link #close}).
 */
final class Installation implements Runnable, AutoCloseable {

    private final Instrumentation instrumentation;
    private final AgentOptions options;
    private final AgentLog log;
    /** The banner this copy printed and claimed the JVM with. */
    private final String banner;
    private final RewriteScope scope;
    private final RewriteCounters counters;
    private final NativeFilterStatus nativeFilterStatus;
    /** Null in a dry run, as is {@link #ticker}. */
    private final DeferredBootClock clock;
    private final Ticker ticker;
    private final CallSiteTransformer transformer;
    private final JmxRegistration jmx;
    /** Built at the hand-over; null before and where it may not serve. Guarded by this. */
    private NativeClassFilter nativeFilter;
    /** Guarded by this. */
    private boolean closed;

    Installation(Instrumentation instrumentation, AgentOptions options, String clocksource, String banner,
            AgentLog log) {
        this.instrumentation = instrumentation;
        this.options = options;
        this.log = log;
        this.banner = banner;
        boolean dryRun = options.dryRun();
        boolean nativeFilterMayServe = !dryRun && options.nativeFilter();
        scope = new RewriteScope(options.packages());
        counters = new RewriteCounters(options.countsSites(), options.reportFile() != null);
        nativeFilterStatus = new NativeFilterStatus();
        clock = dryRun ? null : new DeferredBootClock(instrumentation, log,
                nativeFilterMayServe ? this : null);
        ticker = dryRun ? null : Ticker.prepare(null, options.tickNanos(), options.waitStrategy(),
                options.monotonic(), options.cachePolicy());
        transformer = new CallSiteTransformer(scope, BootClock.INTERNAL_NAME, log, options.verbose(), clock, ticker,
                counters, nativeFilterMayServe, this);
        jmx = options.jmx() ? new JmxRegistration(instrumentation, new MBeanPublisher(options, counters,
                nativeFilterStatus, ticker, clocksource, log)) : null;
    }

    /**
     * Registers the transformer and prints the banner. At startup it first starts waiting for JMX; attached to a
     * running JVM, it rewrites the classes loaded already and then registers the MBean. A request to detach that
     * arrives meanwhile waits until this is done.
     */
    synchronized void start(boolean attached) {
        if (jmx != null && !attached) {
            // Before the transformer: a hand-over to the native filter, which may follow at once, removes the waiter.
            jmx.waitForJmx();
        }
        instrumentation.addTransformer(transformer, true);
        log.line(banner);
        if (attached) {
            transformer.retransformLoaded(() -> LoadedClasses.retransform(instrumentation, scope, log));
        }
        if (options.reportSummary() || options.reportFile() != null) {
            Thread reporter = new Thread(new ExitReport(options, counters, nativeFilterStatus, ticker, log),
                    "clock-agent-report");
            reporter.setContextClassLoader(null);
            Runtime.getRuntime().addShutdownHook(reporter);
        }
        if (jmx != null && attached) {
            jmx.registerNow();
        }
    }

    /**
     * Run by the clock's definer thread once the clock is defined: builds the native filter, whose classes a JVM that
     * loads nothing in scope never loads, and hands class loading over to it. Not after a detach.
     */
    @Override
    public void run() {
        NativeClassFilter filter;
        synchronized (this) {
            if (closed) {
                return;
            }
            filter = NativeClassFilter.forThisPlatform(instrumentation, transformer, options.packages(), jmx,
                    JmxRegistration.MBEAN_SERVER_CLASS, nativeFilterStatus, log, options.nativeFilterRequested());
            nativeFilter = filter;
        }
        filter.run();
    }

    /** Detaches, as another copy asked; on a thread of its own, which the transformer starts. */
    @Override
    public void close() {
        // Waits for start to finish.
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        try {
            NativeClassFilter filter;
            synchronized (this) {
                filter = nativeFilter;
            }
            if (filter != null) {
                filter.close();
            }
            instrumentation.removeTransformer(transformer);
            if (jmx != null) {
                jmx.close();
            }
            if (ticker != null) {
                ticker.close();
            }
            int restored = LoadedClasses.retransform(instrumentation, scope, log);
            log.line("detached: ticker stopped, original code restored in " + restored + " classes");
        } finally {
            // Last: the copy that asked for the detach waits for this.
            ActiveCopy.release(banner);
        }
    }
}
