package io.clockagent.agent.bootstrap;

/**
 * What the cached clock compiles against for {@code java.time.InstantSource} (Java 17), which {@code --release 11} does
 * not let it name: in the class file the agent defines in {@code java.lang}, the clock's every mention of this type is
 * renamed to {@code java.time.InstantSource} ({@code BootClock}). Only rewritten code of Java 17 or later, which names
 * {@code InstantSource} itself, calls what returns it, so that on Java 11 the name is never resolved.
 */
public interface InstantSourceStandIn {
}
