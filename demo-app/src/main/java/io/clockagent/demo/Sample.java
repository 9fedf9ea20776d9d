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

    private Sample(QuoteService service, TickerThread ticker) {
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
        this.nanoTime = System.nanoTime();
    }

    static Sample take(QuoteService service, TickerThread ticker) {
        return new Sample(service, ticker);
    }
}
