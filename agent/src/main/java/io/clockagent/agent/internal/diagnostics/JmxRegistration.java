package io.clockagent.agent.internal.diagnostics;

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
    private final MBeanPublisher publisher;
    /** Guarded by this; a plain flag, as an AtomicBoolean would load more classes before main. */
    private boolean started;

    public JmxRegistration(Instrumentation instrumentation, MBeanPublisher publisher) {
        this.instrumentation = instrumentation;
        this.publisher = publisher;
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
        publisher.startRegistering();
    }

    /** Unregisters the MBean, or stops waiting for JMX. */
    @Override
    public void close() {
        instrumentation.removeTransformer(this);
        publisher.unregister();
    }
}
