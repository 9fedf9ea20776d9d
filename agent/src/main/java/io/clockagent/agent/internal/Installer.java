package io.clockagent.agent.internal;

import java.lang.instrument.Instrumentation;
import java.time.Clock;

/**
 * Installs the agent into this JVM. Both entry points, {@code premain} and {@code agentmain}, call
 * {@link #install} once; the failure policy lives here.
 *
 * <p>Failure policy: bad options print one line and leave the service running without the agent, or, with
 * {@code strict=true} at startup, stop the JVM with status 1 before {@code main}. Any other fault while installing
 * prints one line and leaves the service running without the agent. Faults after installation are contained where
 * they happen: a class that cannot be rewritten loads unchanged ({@link CallSiteTransformer}), and the ticker
 * survives its own failures or, if it dies, sends readers to the direct clock ({@link Ticker}).
 */
public final class Installer {

    private static final AutoCloseable NOTHING_INSTALLED = new NothingInstalled();

    private Installer() {
    }

    /**
     * @param optionsText the text after {@code =} in {@code -javaagent:clock-agent.jar=...}, or null
     * @param atStartup true from {@code premain}, false when attached to a running JVM
     * @return a handle that uninstalls the agent: no more rewriting, and reads go to the direct clock
     */
    public static AutoCloseable install(Instrumentation instrumentation, String optionsText, boolean atStartup) {
        AgentLog log = new AgentLog(System.err);
        AgentOptions options;
        try {
            options = AgentOptions.parse(optionsText);
        } catch (AgentOptionsException bad) {
            if (AgentOptions.requestsStrict(optionsText) && atStartup) {
                log.line("bad option, stopping the JVM (strict=true): " + bad.getMessage());
                System.exit(1);
            }
            log.line("off, the service runs without it: " + bad.getMessage());
            return NOTHING_INSTALLED;
        }
        try {
            if (BootClock.isDefined()) {
                log.line("already active in this JVM; this copy does nothing");
                return NOTHING_INSTALLED;
            }
            CachedClockWriter clock = BootClock.define(instrumentation);
            Ticker ticker = Ticker.start(clock, Clock.systemUTC(), options.tickNanos(), options.waitStrategy(),
                    options.monotonic());
            CallSiteTransformer transformer =
                    new CallSiteTransformer(options.packages(), BootClock.INTERNAL_NAME, log, options.verbose());
            instrumentation.addTransformer(transformer, true);
            log.line(AgentVersion.read() + " caching System.currentTimeMillis(): " + options.describe()
                    + " clocksource=" + HostClocksource.describe());
            return new Installation(instrumentation, transformer, ticker);
        } catch (Throwable failure) {
            log.line("off, the service runs without it: could not install: " + failure);
            return NOTHING_INSTALLED;
        }
    }

    /** A class, not a lambda: the first lambda in a JVM costs milliseconds of bootstrap before main. */
    private static final class NothingInstalled implements AutoCloseable {
        @Override
        public void close() {
            // Nothing was installed, so there is nothing to undo.
        }
    }
}
