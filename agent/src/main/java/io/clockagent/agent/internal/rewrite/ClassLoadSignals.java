package io.clockagent.agent.internal.rewrite;

/**
 * What class loading tells the running agent beyond what it rewrites, from the thread that loads the class: the Java
 * transformer calls these, and the C hook calls them by name through JNI. Neither blocks that thread or throws.
 */
public interface ClassLoadSignals {

    /** Loaded by the JDK, from the boot loader, whenever any MBean server is created: {@link #jmxStarting}. */
    String MBEAN_SERVER_CLASS = "com/sun/jmx/mbeanserver/JmxMBeanServer";

    /** The JDK's MBean server class is loading: JMX is coming alive. */
    void jmxStarting();

    /** Another copy of the agent asks this one to detach ({@code ActiveCopy}). */
    void detachRequested();
}
