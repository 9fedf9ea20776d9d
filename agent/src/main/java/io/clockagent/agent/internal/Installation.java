package io.clockagent.agent.internal;

import java.lang.instrument.Instrumentation;

/** A running agent: its transformer and its ticker. Closing it stops both; classes already rewritten stay so. */
final class Installation implements AutoCloseable {

    private final Instrumentation instrumentation;
    private final CallSiteTransformer transformer;
    private final Ticker ticker;

    Installation(Instrumentation instrumentation, CallSiteTransformer transformer, Ticker ticker) {
        this.instrumentation = instrumentation;
        this.transformer = transformer;
        this.ticker = ticker;
    }

    @Override
    public void close() {
        instrumentation.removeTransformer(transformer);
        ticker.close();
    }
}
