package io.clockagent.agent.internal.caching;

/**
 * {@code cache=always}: the value stays published whenever anything reads the clock, whatever the rate. Once per probe
 * interval the ticker withdraws it and idles until the next read, so that a JVM that stopped reading stops paying for
 * ticks. Keeps no state.
 */
final class CacheWhileRead implements CacheGate {

    @Override
    public boolean opensOnFirstRead(GatedTicker ticker) {
        return true;
    }

    @Override
    public void tickingStarts() {
    }

    @Override
    public boolean sampledBefore(long boundaryWallNanos, GatedTicker ticker) {
        return false;
    }

    @Override
    public boolean readyToReview() {
        return true;
    }

    @Override
    public boolean review(GatedTicker ticker) {
        return ticker.idleUntilDemand();
    }

    @Override
    public CachingDecision decision() {
        return null;
    }
}
