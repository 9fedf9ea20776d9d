package io.clockagent.agent.internal;

import java.lang.instrument.Instrumentation;

/**
 * A running agent: its transformer, its native class filter and its ticker. Closing it stops rewriting, restores the
 * original code of the classes loaded so far, stops the ticker so that any read still redirected goes to the direct
 * clock, and gives up the claim to be this JVM's active copy. Closing twice does nothing more.
 */
final class Installation implements AutoCloseable, Runnable {

    private final Instrumentation instrumentation;
    private final CallSiteTransformer transformer;
    /** Null when the Java transformer filters alone. */
    private final NativeClassFilter nativeFilter;
    /** Null in a dry run. */
    private final Ticker ticker;
    /** Null with jmx=false. */
    private final JmxRegistration jmx;
    private final RewriteScope scope;
    /** The banner this copy printed and claimed the JVM with. */
    private final String banner;
    private final AgentLog log;
    /** Guarded by this. */
    private boolean closed;

    Installation(Instrumentation instrumentation, CallSiteTransformer transformer, NativeClassFilter nativeFilter,
            Ticker ticker, JmxRegistration jmx, RewriteScope scope, String banner, AgentLog log) {
        this.instrumentation = instrumentation;
        this.transformer = transformer;
        this.nativeFilter = nativeFilter;
        this.ticker = ticker;
        this.jmx = jmx;
        this.scope = scope;
        this.banner = banner;
        this.log = log;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        try {
            if (nativeFilter != null) {
                nativeFilter.close();
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

    /**
     * Closes on a thread of its own, as another copy asked while this one's transformer was handed a class: the
     * loading thread must not wait for the ticker, and a retransformation started from inside a transformer would
     * not be shown to any transformer.
     */
    void closeInBackground() {
        Thread closer = new Thread(this, "clock-agent-detach");
        closer.setDaemon(true);
        closer.setContextClassLoader(null);
        closer.start();
    }

    @Override
    public void run() {
        try {
            close();
        } catch (Throwable failure) {
            log.line("could not detach: " + failure);
        }
    }
}
