package io.clockagent.agent.internal.diagnostics;

import io.clockagent.agent.internal.clock.DeferredBootClock;
import io.clockagent.agent.internal.clock.Ticker;
import io.clockagent.agent.internal.log.AgentLog;
import io.clockagent.agent.internal.nativefilter.NativeFilterStatus;
import io.clockagent.agent.internal.options.AgentOptions;
import io.clockagent.agent.internal.rewrite.RewriteCounters;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import java.security.ProtectionDomain;
import javax.management.ObjectName;

/**
 * Registers the agent's MBean once JMX comes alive in the JVM, and not before.
 *
 * <p>Creating the platform MBean server initialises {@code java.util.logging} and about a thousand classes. Done at
 * startup, that would cost the service time and could fight its own logging set-up (a log manager chosen by the
 * application must come first). So the agent waits until something else creates an MBean server (JConsole,
 * VisualVM, jmx_exporter, or the application itself), which it notices as the JDK's MBean server class loads, and
 * registers from a thread of its own. When attached to a running JVM it registers at once. The MBean itself is built
 * only then: its class pulls in JMX exception classes as it is verified, startup cost for a JVM that may never start
 * JMX.
 */
public final class JmxRegistration implements ClassFileTransformer, Runnable, AutoCloseable {

    /** Loaded by the JDK whenever any MBean server is created. */
    public static final String MBEAN_SERVER_CLASS = "com/sun/jmx/mbeanserver/JmxMBeanServer";

    private final Instrumentation instrumentation;
    private final AgentOptions options;
    private final RewriteCounters counters;
    private final NativeFilterStatus nativeFilter;
    private final Ticker ticker;
    private final DeferredBootClock clock;
    private final String clocksource;
    private final AgentLog log;
    /** Guarded by this; a plain flag, as an AtomicBoolean would load three more classes before main on JDK 25. */
    private boolean started;
    private volatile boolean registered;

    /** The options, counters, native filter status, ticker, clock and clocksource are what the MBean shows. */
    public JmxRegistration(Instrumentation instrumentation, AgentOptions options, RewriteCounters counters,
            NativeFilterStatus nativeFilter, Ticker ticker, DeferredBootClock clock, String clocksource, AgentLog log) {
        this.instrumentation = instrumentation;
        this.options = options;
        this.counters = counters;
        this.nativeFilter = nativeFilter;
        this.ticker = ticker;
        this.clock = clock;
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
        synchronized (this) {
            if (started) {
                return;
            }
            started = true;
        }
        instrumentation.removeTransformer(this);
        // Not on the loading thread: it holds the lock under which the platform server is being created.
        Thread registrar = new Thread(this, "clock-agent-jmx");
        registrar.setDaemon(true);
        registrar.setContextClassLoader(null);
        registrar.start();
    }

    @Override
    public void run() {
        try {
            ClockAgentMBean mbean = new ClockAgentMBean(options, counters, nativeFilter, ticker, clock, clocksource);
            ManagementFactory.getPlatformMBeanServer().registerMBean(mbean.asDynamicMBean(),
                    new ObjectName(ClockAgentMBean.OBJECT_NAME));
            registered = true;
        } catch (Exception | LinkageError failure) {
            log.line("no MBean: could not register " + ClockAgentMBean.OBJECT_NAME + ": " + failure);
        }
    }

    /** Unregisters the MBean, or stops waiting for JMX. */
    @Override
    public void close() {
        instrumentation.removeTransformer(this);
        if (registered) {
            try {
                ManagementFactory.getPlatformMBeanServer().unregisterMBean(new ObjectName(ClockAgentMBean.OBJECT_NAME));
            } catch (Exception alreadyGone) {
                // Unregistered by someone else: the goal is reached either way.
            }
        }
    }
}
