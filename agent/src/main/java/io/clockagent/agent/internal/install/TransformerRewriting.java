package io.clockagent.agent.internal.install;

import io.clockagent.agent.internal.clock.DeferredBootClock;
import io.clockagent.agent.internal.log.AgentLog;
import io.clockagent.agent.internal.options.AgentOptions;
import io.clockagent.agent.internal.rewrite.CallSiteTransformer;
import io.clockagent.agent.internal.rewrite.ClockClasses;
import io.clockagent.agent.internal.rewrite.RewriteScope;
import java.lang.instrument.Instrumentation;

/**
 * The Java start's class rewriting, where the native library cannot serve ({@code nativeFilter=false}, no library for
 * the platform, one that cannot load): the Java transformer, registered for the life of the agent, which has the
 * clock defined on a thread of its own ({@link DeferredBootClock}) as the first class in scope loads. A detach removes
 * it, waits for the classes still being defined from its bytes, and retransforms the loaded classes in scope.
 */
final class TransformerRewriting implements ClassRewriting {

    private final Instrumentation instrumentation;
    private final AgentOptions options;
    private final RewriteScope scope;
    /** Why the native start did not serve, or null where it did not say. */
    private final String whyNotNative;
    private final AgentLog log;
    /** Built at the start, as it signals to the installation, which is built around this; guarded by this. */
    private CallSiteTransformer transformer;

    TransformerRewriting(Instrumentation instrumentation, AgentOptions options, String whyNotNative, AgentLog log) {
        this.instrumentation = instrumentation;
        this.options = options;
        this.scope = new RewriteScope(options.packages());
        this.whyNotNative = whyNotNative;
        this.log = log;
    }

    /**
     * Registers the transformer and prints the banner, then, only where {@code nativeFilter=true} asked for the C
     * hook, why it does not serve. Attached to a running JVM, it rewrites the classes loaded already and registers
     * the MBean at once. A detach asked for meanwhile waits until this is done.
     */
    synchronized void start(Installation installation, String banner, boolean attached) {
        transformer = installation.transformer(scope,
                options.dryRun() ? null : new DeferredBootClock(instrumentation, log));
        instrumentation.addTransformer(transformer, true);
        log.note(banner);
        for (String warning : options.warnings()) {
            log.note(warning);
        }
        if (whyNotNative != null && options.nativeFilterRequested()) {
            log.line("native class filter not started, filtering in Java: " + whyNotNative);
        }
        if (attached) {
            transformer.retransformLoaded(() -> LoadedClasses.retransform(instrumentation, scope, log, transformer));
            installation.jmxStarting();
        }
    }

    @Override
    public boolean isNative() {
        return false;
    }

    @Override
    public String describe() {
        if (!options.nativeFilter()) {
            return "java: nativeFilter=false";
        }
        return whyNotNative == null ? "java" : "java: native class filter not started: " + whyNotNative;
    }

    @Override
    public long classesScannedNatively() {
        return 0;
    }

    @Override
    public long classesRewrittenNatively() {
        return 0;
    }

    @Override
    public synchronized ClockClasses clockClasses() {
        return transformer == null ? ClockClasses.NONE : transformer.clockClasses();
    }

    @Override
    public synchronized int restore() {
        instrumentation.removeTransformer(transformer);
        String underWay = transformer.close();
        if (underWay != null) {
            log.line(underWay);
        }
        return LoadedClasses.retransform(instrumentation, scope, log, null);
    }
}
