package io.clockagent.demo;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Per-client rate limiting with one {@link TokenBucket} per client key; safe for any number of request threads.
 * Reads the clock once per {@link #tryAcquire(String)}.
 */
final class RateLimiter {

    private final long capacity;
    private final long tokensPerSecond;
    private final int maxClients;
    private final ConcurrentMap<String, TokenBucket> buckets = new ConcurrentHashMap<>();

    RateLimiter(long capacity, long tokensPerSecond, int maxClients) {
        this.capacity = capacity;
        this.tokensPerSecond = tokensPerSecond;
        this.maxClients = maxClients;
    }

    /** Whether the client may make one more request now; unknown clients beyond {@code maxClients} may not. */
    boolean tryAcquire(String client) {
        long nowMillis = System.currentTimeMillis();
        return tryAcquire(client, nowMillis);
    }

    boolean tryAcquire(String client, long nowMillis) {
        TokenBucket bucket = buckets.get(client);
        if (bucket == null) {
            if (buckets.size() >= maxClients) {
                return false;
            }
            bucket = buckets.computeIfAbsent(client, key -> new TokenBucket(capacity, tokensPerSecond, nowMillis));
        }
        return bucket.tryTake(nowMillis);
    }
}
