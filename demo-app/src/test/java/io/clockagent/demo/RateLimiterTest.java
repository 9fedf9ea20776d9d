package io.clockagent.demo;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RateLimiterTest {

    @Test
    void eachClientHasItsOwnBucket() {
        RateLimiter limiter = new RateLimiter(1, 1, 10);

        assertTrue(limiter.tryAcquire("a", 0));
        assertFalse(limiter.tryAcquire("a", 0));
        assertTrue(limiter.tryAcquire("b", 0));
    }

    @Test
    void newClientsBeyondTheLimitAreRefusedButKnownOnesAreNot() {
        RateLimiter limiter = new RateLimiter(5, 1, 2);

        assertTrue(limiter.tryAcquire("a", 0));
        assertTrue(limiter.tryAcquire("b", 0));
        assertFalse(limiter.tryAcquire("c", 0));
        assertTrue(limiter.tryAcquire("a", 0));
    }

    @Test
    void theNoArgumentFormReadsTheClockItself() {
        RateLimiter limiter = new RateLimiter(1, 1, 1);

        assertTrue(limiter.tryAcquire("a"));
    }
}
