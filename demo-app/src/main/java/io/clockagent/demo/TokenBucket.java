package io.clockagent.demo;

/**
 * One client's token bucket: holds up to {@code capacity} tokens and refills at {@code tokensPerSecond}; callers
 * serialize on the bucket itself.
 */
final class TokenBucket {

    /*
     * Tokens are kept in thousandths so that a refill of tokensPerSecond over whole milliseconds stays exact in
     * integer arithmetic: one millisecond adds exactly tokensPerSecond milli-tokens.
     */
    private static final long MILLI_TOKENS_PER_TOKEN = 1_000L;

    private final long capacityMilliTokens;
    private final long tokensPerSecond;
    private long milliTokens;
    private long lastRefillMillis;

    TokenBucket(long capacity, long tokensPerSecond, long nowMillis) {
        if (capacity < 1 || tokensPerSecond < 1) {
            throw new IllegalArgumentException("capacity and tokensPerSecond must be at least 1, got " + capacity
                    + " and " + tokensPerSecond);
        }
        this.capacityMilliTokens = Math.multiplyExact(capacity, MILLI_TOKENS_PER_TOKEN);
        this.tokensPerSecond = tokensPerSecond;
        this.milliTokens = capacityMilliTokens;
        this.lastRefillMillis = nowMillis;
    }

    /**
     * Takes one token if there is one, after refilling for the time elapsed since the last call. A clock that steps
     * backwards refills nothing until it passes the last refill time again.
     */
    synchronized boolean tryTake(long nowMillis) {
        long elapsedMillis = nowMillis - lastRefillMillis;
        if (elapsedMillis > 0) {
            long fullAfterMillis = capacityMilliTokens / tokensPerSecond + 1;
            long refill = Math.min(elapsedMillis, fullAfterMillis) * tokensPerSecond;
            milliTokens = Math.min(capacityMilliTokens, milliTokens + refill);
            lastRefillMillis = nowMillis;
        }
        if (milliTokens < MILLI_TOKENS_PER_TOKEN) {
            return false;
        }
        milliTokens -= MILLI_TOKENS_PER_TOKEN;
        return true;
    }

    synchronized long availableTokens() {
        return milliTokens / MILLI_TOKENS_PER_TOKEN;
    }
}
