/**
 * Installing the agent into a JVM and detaching it: the entry points' forwarding, the failure policy, and the
 * running agent built from the options. Runs on the thread that calls {@code premain} or {@code agentmain}, on
 * {@code clock-agent-define} to start the hand-over to the native filter once the clock is defined, and on
 * {@code clock-agent-detach} when another copy asks this one to detach.
 *
 * <p>Only {@link Installer} and {@link NativeStart} are public: the entry points call them by name in the agent's own
 * class loader, and below Java 24 the native start straight from the application class loader.
 *
 * <p>May depend on: activecopy, caching, clock, diagnostics, log, nativefilter, options, rewrite.
 */
package io.clockagent.agent.internal.install;
