package io.clockagent.agent.internal;

import java.io.IOException;
import java.lang.instrument.Instrumentation;

/**
 * The cached clock's write side, with the clock class defined in {@code java.lang} only when the first class that
 * reads it is rewritten. Defining it opens {@code java.lang} to the agent, and the JDK does that with its first
 * lambdas: 5-7 ms that a JVM loading nothing in scope (a {@code java -version}, a build tool that inherits
 * {@code JAVA_TOOL_OPTIONS}) would pay for nothing. Thread-safe: whichever class-loading thread comes first defines it.
 * Not final only so that tests can hand over a clock of their own.
 */
class DeferredBootClock {

    private final Instrumentation instrumentation;
    private final AgentLog log;
    private volatile CachedClockWriter writer;
    /** Guarded by this. */
    private boolean failed;

    DeferredBootClock(Instrumentation instrumentation, AgentLog log) {
        this.instrumentation = instrumentation;
        this.log = log;
    }

    /**
     * Defines the clock class on the first call; a rewritten class must not be handed to the JVM before, or its
     * first read would find no class.
     *
     * @return the write side, or null if the class cannot be defined, which is said once: every class then loads
     *     unchanged
     */
    CachedClockWriter writer() {
        CachedClockWriter defined = writer;
        if (defined != null) {
            return defined;
        }
        synchronized (this) {
            if (writer == null && !failed) {
                try {
                    writer = define();
                } catch (Throwable failure) {
                    failed = true;
                    log.line("off, the service runs without it: could not define the cached clock: " + failure);
                }
            }
            return writer;
        }
    }

    CachedClockWriter define() throws ReflectiveOperationException, IOException {
        return BootClock.defineOrFind(instrumentation);
    }

    /** The write side if the class is defined yet, else null; for showing the clock, never for defining it. */
    CachedClockWriter ifDefined() {
        return writer;
    }
}
