package io.clockagent.agent.internal.diagnostics;

import io.clockagent.agent.internal.clock.Ticker;
import io.clockagent.agent.internal.log.AgentLog;
import io.clockagent.agent.internal.options.AgentOptions;
import io.clockagent.agent.internal.rewrite.ClassFilter;
import io.clockagent.agent.internal.rewrite.RewriteCounters;
import java.lang.management.ManagementFactory;
import javax.management.ObjectName;

/**
 * Registers the agent's MBean, on a thread of its own, once the class filter has seen JMX come alive in the JVM (the
 * JDK's MBean server class loading), or at once when attached to a running JVM; and unregisters it at a detach. Needs
 * nothing of {@code java.instrument}.
 *
 * <p>Not before: creating the platform MBean server initialises {@code java.util.logging} and about a thousand classes.
 * Done at startup, that would cost the service time and could fight its own logging set-up (a log manager chosen by
 * the application must come first). So the agent waits until something else creates an MBean server (JConsole,
 * VisualVM, jmx_exporter, or the application itself). The MBean itself is built only then: its class pulls in JMX
 * exception classes as it is verified, startup cost for a JVM that may never start JMX.
 */
public final class MBeanPublisher implements Runnable {

    private final AgentOptions options;
    private final RewriteCounters counters;
    private final ClassFilter filter;
    private final Ticker ticker;
    private final String clocksource;
    private final AgentLog log;
    private volatile boolean registered;
    /** Guarded by this; a plain flag, as an AtomicBoolean would load more classes. */
    private boolean startedOrUnregistered;

    /** The options, counters, class filter, ticker and clocksource are what the MBean shows. */
    public MBeanPublisher(AgentOptions options, RewriteCounters counters, ClassFilter filter,
            Ticker ticker, String clocksource, AgentLog log) {
        this.options = options;
        this.counters = counters;
        this.filter = filter;
        this.ticker = ticker;
        this.clocksource = clocksource;
        this.log = log;
    }

    /**
     * Starts registering, the first time only, and not after {@link #unregister}. Not on the caller's thread, which
     * may be loading the MBean server class and hold the lock under which the platform server is being created.
     */
    public void startRegistering() {
        synchronized (this) {
            if (startedOrUnregistered) {
                return;
            }
            startedOrUnregistered = true;
        }
        Thread registrar = new Thread(this, "clock-agent-jmx");
        registrar.setDaemon(true);
        registrar.setContextClassLoader(null);
        registrar.start();
    }

    @Override
    public void run() {
        try {
            ClockAgentMBean mbean = new ClockAgentMBean(options, counters, filter, ticker, clocksource);
            ManagementFactory.getPlatformMBeanServer().registerMBean(mbean.asDynamicMBean(),
                    new ObjectName(ClockAgentMBean.OBJECT_NAME));
            registered = true;
        } catch (Exception | LinkageError failure) {
            log.line("no MBean: could not register " + ClockAgentMBean.OBJECT_NAME + ": " + failure);
        }
    }

    /** Unregisters the MBean if it was registered, and keeps it from registering later. */
    public void unregister() {
        synchronized (this) {
            startedOrUnregistered = true;
        }
        if (registered) {
            try {
                ManagementFactory.getPlatformMBeanServer().unregisterMBean(new ObjectName(ClockAgentMBean.OBJECT_NAME));
            } catch (Exception alreadyGone) {
                // Unregistered by someone else: the goal is reached either way.
            }
        }
    }
}
