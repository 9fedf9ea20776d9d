package io.clockagent.agent.internal;

/** Reads the counters of one installation for JMX; every getter is safe from any thread. */
final class ClockAgentMBean implements ClockAgentMXBean {

    private final AgentOptions options;
    private final RewriteCounters counters;
    /** Null in a dry run. */
    private final Ticker ticker;
    private final CachedClockWriter clock;
    private final String clocksource;
    private volatile double directCallNanos = Double.NaN;

    ClockAgentMBean(AgentOptions options, RewriteCounters counters, Ticker ticker, CachedClockWriter clock,
            String clocksource) {
        this.options = options;
        this.counters = counters;
        this.ticker = ticker;
        this.clock = clock;
        this.clocksource = clocksource;
    }

    @Override
    public String getVersion() {
        return AgentVersion.read();
    }

    @Override
    public String getOptions() {
        return options.describe();
    }

    @Override
    public long getTickNanos() {
        return options.tickNanos();
    }

    @Override
    public String getWaitStrategy() {
        return options.waitStrategy().optionValue();
    }

    @Override
    public boolean isMonotonic() {
        return options.monotonic();
    }

    @Override
    public boolean isDryRun() {
        return options.dryRun();
    }

    @Override
    public String getClocksource() {
        return clocksource;
    }

    @Override
    public long getClassesScanned() {
        return counters.classesScanned();
    }

    @Override
    public long getClassesRewritten() {
        return counters.classesRewritten();
    }

    @Override
    public long getClassesFailed() {
        return counters.classesFailed();
    }

    @Override
    public long getCallSites() {
        return counters.callSites();
    }

    @Override
    public long getMethodReferences() {
        return counters.methodReferences();
    }

    @Override
    public long getTicks() {
        return ticker == null ? 0L : ticker.ticks();
    }

    @Override
    public long getLateTicks() {
        return ticker == null ? 0L : ticker.lateTicks();
    }

    @Override
    public long getMaxLagMicros() {
        return ticker == null ? 0L : ticker.maxLagNanos() / 1_000L;
    }

    @Override
    public long getIdlePeriods() {
        return ticker == null ? 0L : ticker.idlePeriods();
    }

    @Override
    public long getClamps() {
        return ticker == null ? 0L : ticker.clamps();
    }

    @Override
    public long getTickerFailures() {
        return ticker == null ? 0L : ticker.failures();
    }

    @Override
    public boolean isTimerSlackLowered() {
        return ticker != null && ticker.timerSlackLowered();
    }

    @Override
    public long getCurrentLagMillis() {
        long cached = clock == null ? 0L : clock.published();
        return cached == 0L ? 0L : Math.max(0L, System.currentTimeMillis() - cached);
    }

    @Override
    public double getDirectCallNanos() {
        if (Double.isNaN(directCallNanos)) {
            directCallNanos = ClockCost.directCallNanos();
        }
        return directCallNanos;
    }
}
