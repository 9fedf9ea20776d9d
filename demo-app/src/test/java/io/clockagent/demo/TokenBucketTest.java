package io.clockagent.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TokenBucketTest {

    @Test
    void startsFullAndRefusesOnceEmpty() {
        TokenBucket bucket = new TokenBucket(3, 1, 0);

        assertTrue(bucket.tryTake(0));
        assertTrue(bucket.tryTake(0));
        assertTrue(bucket.tryTake(0));
        assertFalse(bucket.tryTake(0));
    }

    @Test
    void refillsAtTheConfiguredRatePerElapsedMillisecond() {
        TokenBucket bucket = new TokenBucket(10, 1_000, 0);
        drain(bucket, 0);

        assertEquals(0, bucket.availableTokens());
        assertTrue(bucket.tryTake(5));
        assertEquals(4, bucket.availableTokens());
    }

    @Test
    void slowRatesAccumulateFractionsOfATokenExactly() {
        TokenBucket bucket = new TokenBucket(1, 3, 0);
        drain(bucket, 0);

        assertFalse(bucket.tryTake(333), "3 per second is 0.999 tokens after 333 ms");
        assertTrue(bucket.tryTake(334));
    }

    @Test
    void neverHoldsMoreThanItsCapacity() {
        TokenBucket bucket = new TokenBucket(5, 1_000, 0);
        drain(bucket, 0);

        bucket.tryTake(Long.MAX_VALUE / 2);

        assertEquals(4, bucket.availableTokens());
    }

    @Test
    void aClockSteppingBackRefillsNothingUntilItPassesTheLastRefill() {
        TokenBucket bucket = new TokenBucket(2, 1_000, 1_000);
        drain(bucket, 1_000);

        assertFalse(bucket.tryTake(500));
        assertFalse(bucket.tryTake(1_000));
        assertTrue(bucket.tryTake(1_001));
    }

    @Test
    void refusesANonPositiveCapacityOrRate() {
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(0, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(1, 0, 0));
    }

    private static void drain(TokenBucket bucket, long nowMillis) {
        while (bucket.tryTake(nowMillis)) {
            // Empties the bucket at a fixed time.
        }
    }
}
