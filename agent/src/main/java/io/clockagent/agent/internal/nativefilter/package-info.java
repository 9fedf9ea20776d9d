/**
 * The Java side of the native class filter (the C code in {@code agent/src/main/c/}): finding this platform's
 * library in the agent jar, loading it, and the hand-over from the Java transformer, which runs once on the thread
 * that defined the cached clock ({@code clock-agent-define}). After it, the library calls back here from every
 * class-loading thread.
 *
 * <p>Public for {@code install}, which builds it, {@code diagnostics} (its status) and the command line
 * ({@code io.clockagent.agent.Cli}, which lists the platforms the jar carries).
 *
 * <p>May depend on: activecopy, clock, log, rewrite.
 */
package io.clockagent.agent.internal.nativefilter;
