/**
 * The Java half of the {@code -agentpath} entry ({@code agent/src/main/c/agent_entry.c}): the C half reads the options,
 * rewrites classes and defines the cached clock before any of the agent's Java runs; this half starts the ticker, on
 * a thread the C half starts once the clock is defined, in a class loader of its own over the agent jar.
 *
 * <p>Only {@link NativeEntry} is public: the C half calls it by name through JNI.
 *
 * <p>May depend on: activecopy, clock, diagnostics, log, options.
 */
package io.clockagent.agent.internal.nativeentry;
