package io.clockagent.demo;

/** The service's counters and the CPU clocks read at one instant; immutable. */
final class Sample {

    final long nanoTime;
    final long requests;
    final long clockReads;
    final long throttled;
    final long deadlinesMissed;
    final long badRequests;
    final long cacheHits;
    final long cacheMisses;
    final long processCpuNanos;
    final long tickerCpuNanos;
    /**
     * The agent's own account of the CPU it saved so far, net of its ticker, whether it caches and how often it
     * switched: NaN, false and -1 where it is off.
     */
    final double agentSavedCpuMillis;
    final boolean agentCaching;
    final long agentCacheSwitches;

    private Sample(QuoteService service, TickerThread ticker, AgentMBean agent) {
        ServiceStats stats = service.stats();
        this.requests = stats.requests();
        this.clockReads = stats.clockReads();
        this.throttled = stats.throttledCount();
        this.deadlinesMissed = stats.deadlinesMissedCount();
        this.badRequests = stats.badRequestCount();
        this.cacheHits = service.cacheHits();
        this.cacheMisses = service.cacheMisses();
        this.processCpuNanos = ProcessCpu.cpuNanos();
        this.tickerCpuNanos = ticker == null ? TickerThread.NOT_MEASURED : ticker.cpuNanos();
        this.agentSavedCpuMillis = agent == null ? Double.NaN : agent.savedCpuMillis();
        this.agentCaching = agent != null && agent.caching();
        this.agentCacheSwitches = agent == null ? -1L : agent.cacheSwitches();
        this.nanoTime = System.nanoTime();
    }

    /** @param agent null where the agent is off */
    static Sample take(QuoteService service, TickerThread ticker, AgentMBean agent) {
        return new Sample(service, ticker, agent);
    }
}
