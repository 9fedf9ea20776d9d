/**
 * The cached clock's write side: the clock class defined in {@code java.lang}, its writer, and the ticker that
 * publishes the time every tick while its cache gate ({@code caching}) keeps the value published, with its waits for
 * a boundary and what a wall-clock read costs here; it records late ticks through {@code jfr}. The ticker runs on its
 * own thread ({@code clock-agent-ticker}); the clock class is defined on {@code clock-agent-define}, or on the first
 * class-loading thread that needs it.
 *
 * <p>Public for {@code rewrite} (which defines the clock and starts the ticker), {@code options} (the wait strategy
 * values), {@code diagnostics} (which reads the ticker's counts and decision, and whose doctor runs a ticker of its
 * own) and {@code install}, which builds them and defines the class that loads the native library in
 * {@code java.lang} the same way.
 *
 * <p>May depend on: caching, classfile, jfr, log.
 */
package io.clockagent.agent.internal.clock;
