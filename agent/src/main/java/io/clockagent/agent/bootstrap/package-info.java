/**
 * The classes the agent defines in {@code java.lang}, renamed, in the boot loader: the cached clock that rewritten
 * call sites read, and the native class filter's library. The agent never loads them under these names; they import
 * {@code java.*} only, as code in {@code java.base} can see nothing else.
 */
package io.clockagent.agent.bootstrap;
