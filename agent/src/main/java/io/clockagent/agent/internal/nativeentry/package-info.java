/**
 * The Java half of the native start ({@code agent/src/main/c/agent_entry.c}), which serves the {@code -agentpath} and
 * {@code JVMTI.agent_load} entries, and {@code -javaagent} and the jar's attach where the jar carries the library for
 * the platform: the C half reads the options, rewrites classes and defines the cached clock before any more of the
 * agent's Java runs; this half starts the one installation ({@code install}) over the C hook, which runs the ticker,
 * the report, {@code verbose}, the MBean and the detach, on threads of its own, from a class loader of its own over
 * the agent jar.
 *
 * <p>Only {@link NativeEntry} is public: the C half finds it and {@link EntryCalls} by name, and calls the methods of
 * the installation it returns on that object through JNI.
 *
 * <p>May depend on: activecopy, diagnostics, install, log, options, rewrite.
 */
package io.clockagent.agent.internal.nativeentry;
