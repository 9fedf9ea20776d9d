/**
 * The agent's entry points, on the application's class path like every {@code -javaagent} jar: {@code premain} and
 * {@code agentmain} (compiled for Java 8, so that an older JVM is refused in one line rather than with a stack
 * trace), the class loader that keeps the internals apart from the application, and the command line
 * ({@code java -jar clock-agent.jar}).
 *
 * <p>The internals live in {@code io.clockagent.agent.internal}, one package per room, from the top down:
 * {@code nativeentry} (the native start's Java half), {@code install} (installing and detaching, the one running
 * agent), {@code diagnostics} (report, MBean, doctor) and {@code options}, {@code rewrite} (what gets rewritten, the
 * transformer),
 * {@code clock} (the ticker and the clock's write side), and at the bottom {@code classfile} (reading and rewriting
 * class files), {@code activecopy} (one active copy per JVM) and {@code log}. Each package says in its
 * {@code package-info.java} what it may depend on; {@code RoomDependenciesTest} holds the code to it.
 */
package io.clockagent.agent;
