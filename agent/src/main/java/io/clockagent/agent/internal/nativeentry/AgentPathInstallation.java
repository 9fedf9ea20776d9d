package io.clockagent.agent.internal.nativeentry;

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
 * The {@code -agentpath} entry's Java side, as the C half reports to it: the ticker, the sites of the classes the C
 * hook rewrote (for {@code verbose} and the report), the report at exit and the MBean. The C half calls each method
 * below by name through JNI; it calls {@link #clockDefined} and {@link #jmxStarting} at most once each, and
 * {@link #rewroteNatively} only where sites are counted, for the classes it rewrote before this side started too.
 * Uses nothing of {@code java.instrument}, which the runtime may lack.
 */
final class AgentPathInstallation {

    private final RewrittenSites sites;
    /** Null in a dry run, which starts none. */
    private final Ticker ticker;
    /** Null with {@code jmx=false}. */
    private final MBeanPublisher mbean;

    AgentPathInstallation(AgentOptions options, String clocksource, AgentLog log) {
        RewriteCounters counters = new RewriteCounters(options.countsSites(), options.reportFile() != null);
        NativeFilterStatus hook = NativeFilterStatus.servingFromTheStart();
        sites = options.countsSites() ? new RewrittenSites(counters, log, options.verbose(), options.dryRun()) : null;
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

    /** The JDK's MBean server class has loaded: JMX is coming alive. */
    void jmxStarting() {
        mbean.startRegistering();
    }
}
