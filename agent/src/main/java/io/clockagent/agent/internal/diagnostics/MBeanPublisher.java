package io.clockagent.agent.internal.diagnostics;

import io.clockagent.agent.internal.clock.Ticker;
import io.clockagent.agent.internal.log.AgentLog;
import io.clockagent.agent.internal.nativefilter.NativeFilterStatus;
import io.clockagent.agent.internal.options.AgentOptions;
import io.clockagent.agent.internal.rewrite.RewriteCounters;
import java.lang.management.ManagementFactory;
import javax.management.ObjectName;

/**
 * Registers the agent's MBean, on a thread of its own, once an entry has seen JMX come alive in the JVM (see
 * {@link JmxRegistration} for why not before), and unregisters it. Needs nothing of {@code java.instrument}.
 */
public final class MBeanPublisher implements Runnable {

    private final AgentOptions options;
    private final RewriteCounters counters;
    private final NativeFilterStatus nativeFilter;
    private final Ticker ticker;
    private final String clocksource;
    private final AgentLog log;
    private volatile boolean registered;

    /** The options, counters, native filter status, ticker and clocksource are what the MBean shows. */
    public MBeanPublisher(AgentOptions options, RewriteCounters counters, NativeFilterStatus nativeFilter,
            Ticker ticker, String clocksource, AgentLog log) {
        this.options = options;
        this.counters = counters;
        this.nativeFilter = nativeFilter;
        this.ticker = ticker;
        this.clocksource = clocksource;
        this.log = log;
    }

    /**
     * Starts registering; the entry calls this once. Not on the caller's thread, which may be loading the MBean
     * server class and hold the lock under which the platform server is being created.
     */
    public void startRegistering() {
        Thread registrar = new Thread(this, "clock-agent-jmx");
        registrar.setDaemon(true);
        registrar.setContextClassLoader(null);
        registrar.start();
    }

    @Override
    public void run() {
        try {
            ClockAgentMBean mbean = new ClockAgentMBean(options, counters, nativeFilter, ticker, clocksource);
            ManagementFactory.getPlatformMBeanServer().registerMBean(mbean.asDynamicMBean(),
                    new ObjectName(ClockAgentMBean.OBJECT_NAME));
            registered = true;
        } catch (Exception | LinkageError failure) {
            log.line("no MBean: could not register " + ClockAgentMBean.OBJECT_NAME + ": " + failure);
        }
    }

    /** Unregisters the MBean if it was registered. */
    public void unregister() {
        if (registered) {
            try {
                ManagementFactory.getPlatformMBeanServer().unregisterMBean(new ObjectName(ClockAgentMBean.OBJECT_NAME));
            } catch (Exception alreadyGone) {
                // Unregistered by someone else: the goal is reached either way.
            }
        }
    }
}
