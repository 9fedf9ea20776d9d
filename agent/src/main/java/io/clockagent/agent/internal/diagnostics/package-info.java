/**
 * What the agent shows about itself: the version, the host's clocksource, the report at exit (on a shutdown hook,
 * {@code clock-agent-report}), the MBean (registered on {@code clock-agent-jmx} once the application starts JMX, read
 * on JMX's threads) and the doctor, which measures the host's clock from the command line.
 *
 * <p>Public for {@code install}, which builds them, {@code nativeentry} (the clocksource), and the command line
 * ({@code io.clockagent.agent.Cli}).
 *
 * <p>May depend on: caching, classfile, clock, log, options, rewrite.
 */
package io.clockagent.agent.internal.diagnostics;
