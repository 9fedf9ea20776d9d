package io.clockagent.agent.internal.install;

import io.clockagent.agent.internal.activecopy.ActiveCopy;
import io.clockagent.agent.internal.clock.DeferredBootClock;
import io.clockagent.agent.internal.clock.Ticker;
import io.clockagent.agent.internal.diagnostics.AgentVersion;
import io.clockagent.agent.internal.diagnostics.HostClocksource;
import io.clockagent.agent.internal.log.AgentLog;
import io.clockagent.agent.internal.options.AgentOptions;
import io.clockagent.agent.internal.options.AgentOptionsException;
import io.clockagent.agent.internal.rewrite.CallSiteTransformer;
import java.lang.instrument.Instrumentation;
import java.util.concurrent.TimeUnit;

/**
 * Installs the agent into this JVM, or detaches it. Both entry points, {@code premain} and {@code agentmain}, call
 * {@link #install} or {@link #detach} once; the failure policy lives here. At startup and attached alike the native
 * library's start ({@link NativeStart}) comes first, which applies the same policy in C, and the Java start only where
 * it cannot serve.
 *
 * <p>{@code enabled=false} from any option source comes before the failure policy: one line naming the source, and
 * nothing else done, not even the active copy's claim, whatever else the options say.
 *
 * <p>Failure policy: bad options print one line and leave the service running without the agent, or, with
 * {@code strict=true} at startup, stop the JVM with status 1 before {@code main}. Any other fault while installing
 * prints one line and leaves the service running without the agent. Nothing is ever thrown to the JVM: from
 * {@code agentmain} that would print a stack trace into the service's stderr. Faults after installation are
 * contained where they happen: a class that cannot be rewritten loads unchanged ({@link CallSiteTransformer}), a
 * clock class that cannot be defined turns the agent off with one line before anything is rewritten
 * ({@link DeferredBootClock}), and the ticker survives its own failures or, if it dies, sends readers to the direct
 * clock ({@link Ticker}).
 */
public final class Installer {

    /** The agent argument that asks an attached agent to detach; never a valid option string. */
    public static final String DETACH = "detach";

    /** What a copy says that finds another active; the native start says it too, for the ways Java starts it. */
    public static final String ALREADY_ACTIVE = "already active in this JVM; this copy does nothing";

    /** The active copy restores every class it rewrote before it confirms; a large service has thousands. */
    private static final long DETACH_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);

    private Installer() {
    }

    /**
     * The Java start below Java 24, where the entry's own native start ({@link NativeStart}) could not serve; the entry
     * points' signature, for the entry's reflective call. Why not comes through a system property.
     */
    public static void startInJava(String optionsText, Instrumentation instrumentation) {
        install(instrumentation, optionsText, true, NativeStart.whyNotNative());
    }

    /** The Java start from Java 24 on, where the native start could not serve, for the reason given. */
    static void startInJava(String optionsText, Instrumentation instrumentation, String whyNotNative) {
        install(instrumentation, optionsText, true, whyNotNative);
    }

    /**
     * The entry point's {@code agentmain}, forwarded: {@link #DETACH} detaches, anything else attaches, through the
     * native start where it can serve.
     */
    public static void agentmain(String optionsText, Instrumentation instrumentation) {
        if (DETACH.equals(optionsText)) {
            detach(instrumentation);
            return;
        }
        String whyNotNative = NativeStart.start(optionsText, instrumentation, true);
        if (whyNotNative != null) {
            install(instrumentation, optionsText, false, whyNotNative);
        }
    }

    /**
     * @param optionsText the text after {@code =} in {@code -javaagent:clock-agent.jar=...}, or null
     * @param atStartup true from {@code premain}, false when attached to a running JVM
     * @param whyNotNative why the native start left the start to Java, or null where it did not say
     */
    private static void install(Instrumentation instrumentation, String optionsText, boolean atStartup,
            String whyNotNative) {
        AgentLog faults = AgentLog.toStandardError();
        if (!NativeStart.isTheJvms(instrumentation)) {
            faults.line("off: install needs the JVM's own Instrumentation");
            return;
        }
        AgentOptions options;
        try {
            options = AgentOptions.fromSources(optionsText, System.getProperty(AgentOptions.SYSTEM_PROPERTY),
                    System.getenv(AgentOptions.ENVIRONMENT_VARIABLE));
        } catch (AgentOptionsException bad) {
            if (bad.strictRequested() && atStartup) {
                faults.line("bad option, stopping the JVM (strict=true): " + bad.getMessage());
                System.exit(1);
            }
            faults.line("off, the service runs without it: " + bad.getMessage());
            return;
        }
        AgentLog log = faults.quietIf(options.quiet());
        if (options.turnedOffBy() != null) {
            log.note(AgentOptions.turnedOffLine(options.turnedOffBy()));
            return;
        }
        String banner = null;
        try {
            String clocksource = HostClocksource.describe();
            banner = AgentVersion.banner(options, clocksource);
            if (!ActiveCopy.claim(banner)) {
                log.note(ALREADY_ACTIVE);
                return;
            }
            TransformerRewriting rewriting = new TransformerRewriting(instrumentation, options, whyNotNative, log);
            rewriting.start(new Installation(rewriting, options, banner, clocksource, log), banner, !atStartup);
        } catch (Throwable failure) {
            if (banner != null) {
                ActiveCopy.release(banner);
            }
            log.line("off, the service runs without it: could not install: " + failure);
        }
    }

    /**
     * Detaches the agent that an earlier copy installed. This call arrives through a fresh copy of the agent, in a
     * class loader of its own, which asks the active copy to detach and waits until it has ({@link ActiveCopy}).
     */
    public static void detach(Instrumentation instrumentation) {
        AgentLog log = AgentLog.toStandardError();
        if (!NativeStart.isTheJvms(instrumentation)) {
            log.line("not detached: detach needs the JVM's own Instrumentation");
            return;
        }
        try {
            String active = ActiveCopy.active();
            if (active == null) {
                log.line("not active in this JVM; nothing to detach");
            } else if (!ActiveCopy.requestDetach(active, DETACH_TIMEOUT_NANOS)) {
                log.line("asked the active copy to detach, but it has not confirmed within "
                        + TimeUnit.NANOSECONDS.toSeconds(DETACH_TIMEOUT_NANOS) + " s");
            }
        } catch (Throwable failure) {
            log.line("could not detach: " + failure);
        }
    }
}
