package io.clockagent.agent.internal.clock;

import io.clockagent.agent.internal.log.AgentLog;
import java.io.IOException;
import java.lang.instrument.Instrumentation;

/**
 * The cached clock's write side, with the clock class defined in {@code java.lang} only once the agent meets a class
 * in scope. Defining it opens {@code java.lang} to the agent, and the JDK does that with its first lambdas: startup
 * time that a JVM loading nothing in scope (a {@code java -version}, a build tool that inherits
 * {@code JAVA_TOOL_OPTIONS}) would pay for nothing. The first class in scope starts the definition on a thread of its
 * own, so that the loading threads go on; the first class that reads the clock, usually some way behind, waits for it
 * only if it is not done yet. Thread-safe: whichever thread asks first defines it, and every other waits.
 * Not final only so that tests can hand over a clock of their own.
 */
public class DeferredBootClock implements Runnable {

    private final Instrumentation instrumentation;
    private final AgentLog log;
    /**
     * Built with the agent, not by the class-loading thread that starts it, so that it inherits nothing of that
     * thread: no context class loader, no inheritable thread-locals of the application.
     */
    private final Thread definer;
    private final Object definerStart = new Object();
    /** Written under {@link #definerStart}. */
    private volatile boolean definerStarted;
    private volatile CachedClockWriter writer;
    /** Guarded by this. */
    private boolean failed;
    /** The thread defining the clock, while it does; guarded by this, whose lock that thread holds meanwhile. */
    private Thread defining;

    public DeferredBootClock(Instrumentation instrumentation, AgentLog log) {
        this.instrumentation = instrumentation;
        this.log = log;
        this.definer = new Thread(this, "clock-agent-define");
        definer.setDaemon(true);
        definer.setContextClassLoader(null);
    }

    /**
     * Starts defining the clock in the background, once; cheap after the first call, so every class in scope may make
     * it. If the thread cannot start, the first {@link #writer()} defines the clock instead.
     */
    public void defineSoon() {
        if (definerStarted) {
            return;
        }
        synchronized (definerStart) {
            if (definerStarted) {
                return;
            }
            definerStarted = true;
        }
        try {
            definer.start();
        } catch (Throwable cannotStart) {
            // Out of threads or memory: nothing is lost but the head start.
        }
    }

    /** The definer thread's work. */
    @Override
    public void run() {
        writer();
    }

    /**
     * Defines the clock class on the first call, or waits while the definer thread does; a rewritten class must not
     * be handed to the JVM before, or its first read would find no class.
     *
     * @return the write side, or null if the class cannot be defined, which is said once: every class then loads
     *     unchanged
     */
    public CachedClockWriter writer() {
        CachedClockWriter defined = writer;
        if (defined != null) {
            return defined;
        }
        synchronized (this) {
            if (defining == Thread.currentThread()) {
                // Asked from inside the definition: the JVM shows the clock's class to every transformer, and one
                // that loads a class in scope then brings it here. The lock is this thread's; the class loads
                // unchanged rather than have the clock defined twice.
                return null;
            }
            if (writer == null && !failed) {
                defining = Thread.currentThread();
                try {
                    writer = define();
                } catch (Throwable failure) {
                    failed = true;
                    log.line("off, the service runs without it: could not define the cached clock: " + failure);
                } finally {
                    defining = null;
                }
            }
            return writer;
        }
    }

    protected CachedClockWriter define() throws ReflectiveOperationException, IOException {
        return BootClock.defineOrFind(instrumentation);
    }

    /** The write side if the class is defined yet, else null; for showing the clock, never for defining it. */
    public CachedClockWriter ifDefined() {
        return writer;
    }
}
