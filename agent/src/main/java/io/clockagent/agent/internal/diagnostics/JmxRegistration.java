package io.clockagent.agent.internal.diagnostics;

import io.clockagent.agent.internal.clock.Ticker;
import io.clockagent.agent.internal.log.AgentLog;
import io.clockagent.agent.internal.nativefilter.NativeFilterStatus;
import io.clockagent.agent.internal.options.AgentOptions;
import io.clockagent.agent.internal.rewrite.RewriteCounters;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;

/**
 * For the {@code -javaagent} entry: registers the agent's MBean once JMX comes alive in the JVM, and not before.
 *
 * <p>Creating the platform MBean server initialises {@code java.util.logging} and about a thousand classes. Done at
 * startup, that would cost the service time and could fight its own logging set-up (a log manager chosen by the
 * application must come first). So the agent waits until something else creates an MBean server (JConsole,
 * VisualVM, jmx_exporter, or the application itself), which it notices as the JDK's MBean server class loads, and
 * registers from a thread of its own ({@link MBeanPublisher}). When attached to a running JVM it registers at once.
 * The MBean itself is built only then: its class pulls in JMX exception classes as it is verified, startup cost for a
 * JVM that may never start JMX.
 */
public final class JmxRegistration implements ClassFileTransformer, AutoCloseable {

    /** Loaded by the JDK whenever any MBean server is created. */
    public static final String MBEAN_SERVER_CLASS = "com/sun/jmx/mbeanserver/JmxMBeanServer";

    private final Instrumentation instrumentation;
    private final AgentOptions options;
    private final RewriteCounters counters;
    private final NativeFilterStatus nativeFilter;
    private final Ticker ticker;
    private final String clocksource;
    private final AgentLog log;
    /**
     * Built as registration starts, so that its class is not loaded before main. Guarded by this for the one start; a
     * plain field, as an AtomicBoolean would load three more classes before main on JDK 25.
     */
    private volatile MBeanPublisher publisher;

    /** The options, counters, native filter status, ticker and clocksource are what the MBean shows. */
    public JmxRegistration(Instrumentation instrumentation, AgentOptions options, RewriteCounters counters,
            NativeFilterStatus nativeFilter, Ticker ticker, String clocksource, AgentLog log) {
        this.instrumentation = instrumentation;
        this.options = options;
        this.counters = counters;
        this.nativeFilter = nativeFilter;
        this.ticker = ticker;
        this.clocksource = clocksource;
        this.log = log;
    }

    /**
     * Waits for the MBean server class as a transformer of its own, until the class loads or the native class filter
     * takes over, removes this transformer and passes it that class instead.
     */
    public void waitForJmx() {
        // Retransform-capable like the rewriter, so that both share one JVMTI hook and one copy of each class.
        instrumentation.addTransformer(this, true);
    }

    /** Registers at once, as when attached to a running JVM. */
    public void registerNow() {
        startRegistering();
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> classBeingRedefined,
            ProtectionDomain protectionDomain, byte[] classFile) {
        if (loader == null && MBEAN_SERVER_CLASS.equals(className)) {
            startRegistering();
        }
        return null;
    }

    private void startRegistering() {
        MBeanPublisher started;
        synchronized (this) {
            if (publisher != null) {
                return;
            }
            started = new MBeanPublisher(options, counters, nativeFilter, ticker, clocksource, log);
            publisher = started;
        }
        instrumentation.removeTransformer(this);
        started.startRegistering();
    }

    /** Unregisters the MBean, or stops waiting for JMX. */
    @Override
    public void close() {
        instrumentation.removeTransformer(this);
        MBeanPublisher started = publisher;
        if (started != null) {
            started.unregister();
        }
    }
}
