/**
 * The classes the agent defines in {@code java.lang}, renamed, in the boot loader: the cached clock that rewritten
 * call sites read, and the native library, as the native class filter and, from Java 24 on, the {@code -javaagent}
 * entry's native start load it. The agent never loads them under these names; they import
 * {@code java.*} only, as code in {@code java.base} can see nothing else.
 */
package io.clockagent.agent.bootstrap;
