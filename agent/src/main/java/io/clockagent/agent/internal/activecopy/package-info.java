/**
 * One active copy of the agent per JVM: how a copy claims the JVM, how a later copy finds it, and how it asks the
 * active one to detach. Runs on the thread that installs or detaches a copy, and, for the detach signal, on the
 * class-loading thread that shows it to the active copy's transformer.
 *
 * <p>Public for {@code install} and {@code nativeentry} (the claim), and for {@code rewrite}, which watches for the
 * signal.
 *
 * <p>May depend on: nothing.
 */
package io.clockagent.agent.internal.activecopy;
