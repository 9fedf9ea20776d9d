package io.clockagent.demo;

import java.lang.management.ManagementFactory;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The agent as a service sees it: its MBean, {@value #OBJECT_NAME}, which the agent registers once the service starts
 * JMX. This is how the demo waits for the agent and asks for its verdict, as an operator's dashboard would; it has no
 * other link to the agent's state. Safe to share between threads.
 */
final class AgentMBean {

    static final String OBJECT_NAME = "io.clockagent:type=ClockAgent";

    private final MBeanServer server;
    private final ObjectName name;

    private AgentMBean(MBeanServer server, ObjectName name) {
        this.server = server;
        this.name = name;
    }

    /**
     * Starts JMX, which tells the agent to register, and waits for it to do so.
     *
     * @return the registered MBean, or null if it was not registered within {@code timeoutNanos}
     */
    static AgentMBean await(long timeoutNanos) throws InterruptedException {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name;
        try {
            name = new ObjectName(OBJECT_NAME);
        } catch (JMException impossible) {
            throw new IllegalStateException(impossible);
        }
        long giveUpAtNanos = System.nanoTime() + timeoutNanos;
        while (!server.isRegistered(name)) {
            if (System.nanoTime() - giveUpAtNanos >= 0) {
                return null;
            }
            Thread.sleep(10);
        }
        return new AgentMBean(server, name);
    }

    /** What the agent decided at this moment, and from which of its measurements. */
    AgentVerdict verdict() {
        return new AgentVerdict(caching(), (Double) attribute("ReadsPerSecond"),
                (Double) attribute("BreakEvenReadsPerSecond"), (Double) attribute("DirectCallNanosMeasured"),
                (Double) attribute("DirectReadNanosInService"), (Double) attribute("SavedReadNanos"),
                (Long) attribute("Ticks"));
    }

    /** The CPU time the agent says it saved so far, net of its ticker's; NaN with cache=always. */
    double savedCpuMillis() {
        return (Double) attribute("SavedCpuMillis");
    }

    boolean caching() {
        return (Boolean) attribute("Caching");
    }

    /** How often cache=auto started or stopped caching so far. */
    long cacheSwitches() {
        return (Long) attribute("CacheSwitches");
    }

    private Object attribute(String attribute) {
        try {
            return server.getAttribute(name, attribute);
        } catch (JMException gone) {
            throw new IllegalStateException("the agent's MBean has no readable " + attribute + ": " + gone, gone);
        }
    }
}
