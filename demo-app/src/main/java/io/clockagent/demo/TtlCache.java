package io.clockagent.demo;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * A map whose entries expire a fixed time after they were put; safe for any number of threads. Reads the clock
 * once per {@link #get(Object)} and once per {@link #put(Object, Object)}.
 */
final class TtlCache<K, V> {

    private final long ttlMillis;
    private final int maxEntries;
    private final ConcurrentMap<K, Entry<V>> entries = new ConcurrentHashMap<>();
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();

    TtlCache(long ttlMillis, int maxEntries) {
        if (ttlMillis < 1 || maxEntries < 1) {
            throw new IllegalArgumentException("ttlMillis and maxEntries must be at least 1, got " + ttlMillis + " and "
                    + maxEntries);
        }
        this.ttlMillis = ttlMillis;
        this.maxEntries = maxEntries;
    }

    /** The live value for the key, or null if there is none or it has expired. */
    V get(K key) {
        long nowMillis = System.currentTimeMillis();
        return get(key, nowMillis);
    }

    V get(K key, long nowMillis) {
        Entry<V> entry = entries.get(key);
        if (entry == null) {
            misses.increment();
            return null;
        }
        if (nowMillis >= entry.expiresAtMillis) {
            entries.remove(key, entry);
            misses.increment();
            return null;
        }
        hits.increment();
        return entry.value;
    }

    /** Stores the value until {@code ttlMillis} from now; when full even after dropping expired entries, does not. */
    void put(K key, V value) {
        long nowMillis = System.currentTimeMillis();
        put(key, value, nowMillis);
    }

    void put(K key, V value, long nowMillis) {
        if (entries.size() >= maxEntries && !entries.containsKey(key)) {
            entries.values().removeIf(entry -> nowMillis >= entry.expiresAtMillis);
            if (entries.size() >= maxEntries) {
                return;
            }
        }
        entries.put(key, new Entry<>(value, nowMillis + ttlMillis));
    }

    int size() {
        return entries.size();
    }

    long hits() {
        return hits.sum();
    }

    long misses() {
        return misses.sum();
    }

    private static final class Entry<V> {
        final V value;
        final long expiresAtMillis;

        Entry(V value, long expiresAtMillis) {
            this.value = value;
            this.expiresAtMillis = expiresAtMillis;
        }
    }
}
