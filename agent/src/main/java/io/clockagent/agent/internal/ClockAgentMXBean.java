package io.clockagent.agent.internal;

/**
 * The agent as seen through JMX, as {@value #OBJECT_NAME}. Plain numbers with stable names, so that Prometheus'
 * jmx_exporter and OpenTelemetry's JMX metrics can scrape them. Read-only: nothing here changes the clock.
 */
public interface ClockAgentMXBean {

    String OBJECT_NAME = "io.clockagent:type=ClockAgent";

    String getVersion();

    /** The options in force, as the banner shows them. */
    String getOptions();

    long getTickNanos();

    String getWaitStrategy();

    boolean isMonotonic();

    boolean isDryRun();

    String getClocksource();

    long getClassesScanned();

    long getClassesRewritten();

    long getClassesFailed();

    long getCallSites();

    long getMethodReferences();

    long getTicks();

    /** Ticks published a whole tick period or more after their boundary. */
    long getLateTicks();

    long getMaxLagMicros();

    long getIdlePeriods();

    long getClamps();

    long getTickerFailures();

    boolean isTimerSlackLowered();

    /** How far the cached value is behind the real clock right now; 0 while reads go to the direct clock. */
    long getCurrentLagMillis();

    /** The measured cost of one direct {@code System.currentTimeMillis()} call on this host, measured once. */
    double getDirectCallNanos();
}
