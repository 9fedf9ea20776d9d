package io.clockagent.agent.bootstrap;

/**
 * What the cached clock compiles against for {@code java.time.InstantSource} (Java 17), which {@code --release 11} does
 * not let it name: in the class file the agent defines in {@code java.lang}, the clock's every mention of this type is
 * renamed to {@code java.time.InstantSource} on a JDK that has it, and to {@code java.time.Clock} on one that does not
 * ({@code BootClock}), so that no JDK is asked to resolve a type it lacks, as reflection over the clock's methods does.
 */
public interface InstantSourceStandIn {
}
