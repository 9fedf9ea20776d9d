package io.clockagent.it.support;

import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import javax.management.Attribute;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * The MBeans of another JVM on this machine, reached the way JConsole and VisualVM reach a local process: attach to
 * it, start its local management agent, and connect a JMX connector to the address that returns. Used from one
 * test thread; closing it closes the connection.
 */
public final class RemoteJmx implements AutoCloseable {

    private static final long POLL_MILLIS = 20;

    private final JMXConnector connector;
    private final MBeanServerConnection connection;

    private RemoteJmx(JMXConnector connector) throws IOException {
        this.connector = connector;
        this.connection = connector.getMBeanServerConnection();
    }

    /** Attaches to the JVM, which starts its JMX if nothing has yet, and connects. */
    public static RemoteJmx connect(long pid) throws Exception {
        VirtualMachine target = VirtualMachine.attach(Long.toString(pid));
        String address;
        try {
            address = target.startLocalManagementAgent();
        } finally {
            target.detach();
        }
        return new RemoteJmx(JMXConnectorFactory.connect(new JMXServiceURL(address)));
    }

    /**
     * Waits until an MBean of that name is registered; a liveness bound, not a speed target.
     *
     * @return whether it was registered before the patience ran out
     */
    public boolean awaitRegistered(String objectName, long patienceSeconds) throws Exception {
        ObjectName name = new ObjectName(objectName);
        long deadlineNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(patienceSeconds);
        while (!connection.isRegistered(name)) {
            if (System.nanoTime() - deadlineNanos > 0) {
                return false;
            }
            Thread.sleep(POLL_MILLIS);
        }
        return true;
    }

    /** Every attribute of the MBean, by name, read in one request. */
    public Map<String, Object> attributes(String objectName) throws IOException, JMException {
        ObjectName name = new ObjectName(objectName);
        Map<String, Object> values = new TreeMap<>();
        MBeanAttributeInfo[] info = connection.getMBeanInfo(name).getAttributes();
        String[] names = new String[info.length];
        for (int i = 0; i < info.length; i++) {
            names[i] = info[i].getName();
        }
        for (Attribute attribute : connection.getAttributes(name, names).asList()) {
            values.put(attribute.getName(), attribute.getValue());
        }
        return values;
    }

    @Override
    public void close() throws IOException {
        connector.close();
    }
}
