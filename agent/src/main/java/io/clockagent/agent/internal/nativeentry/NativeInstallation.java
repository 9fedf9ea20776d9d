package io.clockagent.agent.internal.nativeentry;

import io.clockagent.agent.internal.activecopy.ActiveCopy;
import io.clockagent.agent.internal.clock.CachedClockWriter;
import io.clockagent.agent.internal.clock.Ticker;
import io.clockagent.agent.internal.diagnostics.ExitReport;
import io.clockagent.agent.internal.diagnostics.MBeanPublisher;
import io.clockagent.agent.internal.log.AgentLog;
import io.clockagent.agent.internal.nativefilter.NativeFilterStatus;
import io.clockagent.agent.internal.options.AgentOptions;
import io.clockagent.agent.internal.rewrite.RewriteCounters;
import io.clockagent.agent.internal.rewrite.RewrittenSites;
import java.lang.invoke.MethodHandles;

/**
 * The native start's Java side ({@code -agentpath}, or {@code -javaagent} through the library), as the C half reports
 * to it: the ticker, the sites of the classes the C
 * hook rewrote (for {@code verbose} and the report), the report at exit, the MBean, and the detach another copy asks
 * for. The C half calls each method below by name through JNI; it calls {@link #clockDefined}, {@link #jmxStarting}
 * and {@link #detachRequested} at most once each, and {@link #rewroteNatively} only where sites are counted, for the
 * classes it rewrote before this side started too. Uses nothing of {@code java.instrument}, which the runtime may lack.
 */
final class NativeInstallation implements Runnable {

    private final String banner;
    private final AgentLog log;
    private final RewrittenSites sites;
    /** Null in a dry run, which starts none. */
    private final Ticker ticker;
    /** Null with {@code jmx=false}. */
    private final MBeanPublisher mbean;

    /** @param banner what the C half claimed the JVM with, which a detach gives up last */
    NativeInstallation(AgentOptions options, String banner, String clocksource, AgentLog log) {
        this.banner = banner;
        this.log = log;
        RewriteCounters counters = new RewriteCounters(options.countsSites(), options.reportFile() != null);
        NativeFilterStatus hook = NativeFilterStatus.servingFromTheStart();
        sites = options.countsSites() ? new RewrittenSites(options.packages(), counters, log, options.verbose(),
                options.dryRun()) : null;
        ticker = options.dryRun() ? null : Ticker.prepare(null, options.tickNanos(), options.waitStrategy(),
                options.monotonic(), options.cachePolicy());
        mbean = options.jmx() ? new MBeanPublisher(options, counters, hook, ticker, clocksource, log) : null;
        if (options.reportSummary() || options.reportFile() != null) {
            Thread reporter = new Thread(new ExitReport(options, counters, hook, ticker, log), "clock-agent-report");
            reporter.setContextClassLoader(null);
            Runtime.getRuntime().addShutdownHook(reporter);
        }
    }

    /** The clock the C half defined in {@code java.lang}, with its own lookup, which only the C half can take. */
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

    /** The JDK's MBean server class has loaded: JMX is coming alive. */
    void jmxStarting() {
        mbean.startRegistering();
    }

    /**
     * Another copy asks this one to detach ({@code ActiveCopy}): done on a thread of its own, as the loading thread
     * must not wait for the ticker.
     */
    void detachRequested() {
        Thread detaching = new Thread(this, "clock-agent-detach");
        detaching.setDaemon(true);
        detaching.setContextClassLoader(null);
        detaching.start();
    }

    /**
     * The detach: the MBean unregistered, the ticker stopped, so that any read still redirected takes the direct
     * clock, the original code restored, and the claim on the JVM given up last, which the asking copy waits for.
     */
    @Override
    public void run() {
        try {
            if (mbean != null) {
                mbean.unregister();
            }
            if (ticker != null) {
                ticker.close();
            }
            int restored = EntryCalls.restoreClasses();
            log.line("detached: ticker stopped, original code restored in " + restored + " classes");
        } catch (RuntimeException | Error failure) {
            log.line("could not detach: " + failure);
        } finally {
            ActiveCopy.release(banner);
        }
    }
}
