package io.clockagent.agent.internal;

import java.lang.instrument.Instrumentation;

/**
 * A running agent: its transformer and its ticker. Closing it stops rewriting, restores the original code of the
 * classes loaded so far, and stops the ticker so that any read still redirected goes to the direct clock.
 */
final class Installation implements AutoCloseable {

    private final Instrumentation instrumentation;
    private final CallSiteTransformer transformer;
    /** Null in a dry run. */
    private final Ticker ticker;
    private final CachedClockWriter clock;
    /** Null with jmx=false. */
    private final JmxRegistration jmx;
    private final RewriteScope scope;
    private final AgentLog log;

    Installation(Instrumentation instrumentation, CallSiteTransformer transformer, Ticker ticker,
            CachedClockWriter clock, JmxRegistration jmx, RewriteScope scope, AgentLog log) {
        this.instrumentation = instrumentation;
        this.transformer = transformer;
        this.ticker = ticker;
        this.clock = clock;
        this.jmx = jmx;
        this.scope = scope;
        this.log = log;
    }

    @Override
    public void close() {
        instrumentation.removeTransformer(transformer);
        if (jmx != null) {
            jmx.close();
        }
        if (ticker != null) {
            ticker.close();
        }
        clock.installation(null);
        int restored = LoadedClasses.retransform(instrumentation, scope, log);
        log.line("detached: ticker stopped, original code restored in " + restored + " classes");
    }
}
