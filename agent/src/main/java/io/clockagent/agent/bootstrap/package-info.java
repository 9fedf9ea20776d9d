/**
 * The classes the agent defines in {@code java.lang}, renamed, in the boot loader: the cached clock that rewritten
 * call sites read, and the native library, as the native class filter and, from Java 24 on, the {@code -javaagent}
 * entry's native start load it. The agent never loads them under these names; they use {@code java.base} only, as
 * code there can see nothing else: {@code java.*}, and for the clock {@code jdk.internal.misc.Unsafe}, under the
 * name of {@link io.clockagent.agent.bootstrap.CellAccess}, which the renaming replaces, as it replaces
 * {@link io.clockagent.agent.bootstrap.InstantSourceStandIn} with the {@code java.time} type of the JDK's release.
 */
package io.clockagent.agent.bootstrap;
