/**
 * Installing the agent into a JVM and detaching it: the entry points' forwarding, the failure policy, the native
 * start with the native library it writes out, and the one running agent ({@link Installation}) that either start
 * builds from the options, with what differs between them behind {@link ClassRewriting}. Runs on the thread that
 * calls {@code premain} or {@code agentmain}, on the native start's thread that starts its Java side, and on
 * {@code clock-agent-detach} when another copy asks this one to detach.
 *
 * <p>Public: {@link Installer} and {@link NativeStart}, which the entry points call by name in the agent's own class
 * loader, and below Java 24 the native start straight from the application class loader; {@link Installation} and
 * {@link ClassRewriting}, for {@code nativeentry}; {@link NativeLibraries}, for the command line.
 *
 * <p>May depend on: activecopy, caching, clock, diagnostics, log, options, rewrite.
 */
package io.clockagent.agent.internal.install;
