package io.clockagent.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class TtlCacheTest {

    @Test
    void returnsAValueUntilItsTtlHasPassed() {
        TtlCache<String, String> cache = new TtlCache<>(100, 10);
        cache.put("k", "v", 1_000);

        assertEquals("v", cache.get("k", 1_000));
        assertEquals("v", cache.get("k", 1_099));
        assertNull(cache.get("k", 1_100));
        assertEquals(0, cache.size(), "the expired entry is dropped");
    }

    @Test
    void aNewPutRestartsTheTtl() {
        TtlCache<String, String> cache = new TtlCache<>(100, 10);
        cache.put("k", "old", 0);
        cache.put("k", "new", 50);

        assertEquals("new", cache.get("k", 149));
    }

    @Test
    void countsHitsAndMisses() {
        TtlCache<String, String> cache = new TtlCache<>(100, 10);
        cache.get("k", 0);
        cache.put("k", "v", 0);
        cache.get("k", 1);
        cache.get("k", 2);
        cache.get("k", 200);

        assertEquals(2, cache.hits());
        assertEquals(2, cache.misses());
    }

    @Test
    void whenFullDropsExpiredEntriesBeforeRefusingANewOne() {
        TtlCache<Integer, String> cache = new TtlCache<>(100, 2);
        cache.put(1, "a", 0);
        cache.put(2, "b", 50);

        cache.put(3, "c", 120);
        assertEquals(2, cache.size());
        assertNull(cache.get(1, 120));
        assertEquals("c", cache.get(3, 120));

        cache.put(4, "d", 121);
        assertNull(cache.get(4, 121), "full of live entries: not cached");
        assertEquals("b", cache.get(2, 121));
    }

    @Test
    void refusesANonPositiveTtlOrSize() {
        assertThrows(IllegalArgumentException.class, () -> new TtlCache<String, String>(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new TtlCache<String, String>(1, 0));
    }
}
