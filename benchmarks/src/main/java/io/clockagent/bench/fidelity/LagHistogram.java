package io.clockagent.bench.fidelity;

/**
 * How far a cached clock lags the real one, sample by sample: exact, one millisecond behind, two or more behind, or
 * (which a correct cached clock never is) ahead. A sample is kept only when the real clock read the same value just
 * before and just after the cached read, so that the real millisecond is known. Not thread-safe: one reader fills it.
 */
public final class LagHistogram {

    private long exact;
    private long oneBehind;
    private long twoOrMoreBehind;
    private long ahead;
    private long discarded;
    private long maxLagMillis;

    /** Classifies one sample: real clock before, cached clock, real clock after. */
    public void add(long realBeforeMillis, long cachedMillis, long realAfterMillis) {
        if (realBeforeMillis != realAfterMillis) {
            discarded++;
            return;
        }
        long lagMillis = realBeforeMillis - cachedMillis;
        if (lagMillis == 0) {
            exact++;
        } else if (lagMillis == 1) {
            oneBehind++;
        } else if (lagMillis > 1) {
            twoOrMoreBehind++;
        } else {
            ahead++;
        }
        maxLagMillis = Math.max(maxLagMillis, lagMillis);
    }

    public long kept() {
        return exact + oneBehind + twoOrMoreBehind + ahead;
    }

    public long discarded() {
        return discarded;
    }

    public long exact() {
        return exact;
    }

    public long oneBehind() {
        return oneBehind;
    }

    public long twoOrMoreBehind() {
        return twoOrMoreBehind;
    }

    public long ahead() {
        return ahead;
    }

    public long maxLagMillis() {
        return maxLagMillis;
    }
}
