/**
 * The agent's options: parsed once, from the {@code -javaagent} string, a system property and an environment
 * variable, on the thread that installs the agent, and immutable after. Every bad value is refused with one line
 * that names it and the valid choices.
 *
 * <p>Public for {@code install}, {@code diagnostics} (which shows them) and the command line
 * ({@code io.clockagent.agent.Cli}).
 *
 * <p>May depend on: caching, clock, rewrite.
 */
package io.clockagent.agent.internal.options;
