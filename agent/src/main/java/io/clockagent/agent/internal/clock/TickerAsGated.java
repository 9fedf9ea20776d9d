package io.clockagent.agent.internal.clock;

import io.clockagent.agent.internal.caching.GatedTicker;
import io.clockagent.agent.internal.caching.ServiceCpuTime;

/** The ticker as its cache gate drives it; called on the ticker thread only. */
final class TickerAsGated implements GatedTicker {

    private final Ticker ticker;
    private final BoundaryWait waits;
    /** Made at the first pair of cache=auto's price, so that no other ticker loads its class. */
    private ServiceCpuTime serviceCpuTime;

    private TickerAsGated(Ticker ticker, BoundaryWait waits) {
        this.ticker = ticker;
        this.waits = waits;
    }

    /**
     * Typed as the interface here, not in the ticker's code, where verifying the conversion would load the interface
     * as the ticker is built rather than as it runs.
     */
    static GatedTicker of(Ticker ticker, BoundaryWait waits) {
        return new TickerAsGated(ticker, waits);
    }

    @Override
    public void withdraw() {
        ticker.withdraw();
    }

    @Override
    public void publish() {
        ticker.publish();
    }

    @Override
    public boolean idleUntilDemand() {
        return ticker.idleUntilDemand();
    }

    @Override
    public boolean countReads() {
        return ticker.clock().countReads();
    }

    @Override
    public long directReads() {
        return ticker.clock().directReads();
    }

    @Override
    public long serviceCpuNanos() {
        if (serviceCpuTime == null) {
            serviceCpuTime = new ServiceCpuTime();
        }
        return serviceCpuTime.nanos();
    }

    @Override
    public long fixedJvmCpuNanos() {
        return serviceCpuTime == null ? ServiceCpuTime.UNKNOWN : serviceCpuTime.fixedJvmNanos();
    }

    @Override
    public long parkUntil(long startNanos, long forNanos) {
        return waits.parkUntil(startNanos, forNanos);
    }

    @Override
    public long restUntil(long startNanos, long forNanos) {
        CachedClockWriter clock = ticker.clock();
        clock.setResting(true);
        try {
            return waits.parkOnce(startNanos, forNanos);
        } finally {
            clock.setResting(false);
        }
    }

    @Override
    public long wallNanosNow() {
        return waits.wallNanosNow();
    }

    @Override
    public double measureDirectCallNanos() {
        return WallReadCost.directCallNanos();
    }

    @Override
    public boolean running() {
        return ticker.running();
    }
}
