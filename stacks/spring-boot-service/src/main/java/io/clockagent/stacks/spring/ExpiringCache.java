package io.clockagent.stacks.spring;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.springframework.stereotype.Component;

/** Greetings by name, each kept for {@value #TIME_TO_LIVE_MILLIS} ms after it was made, by the wall clock. */
@Component
public class ExpiringCache {

    static final long TIME_TO_LIVE_MILLIS = 200;

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final ServiceCounts counts;

    public ExpiringCache(ServiceCounts counts) {
        this.counts = counts;
    }

    /** The cached value, or a new one from {@code make}; whether it came from the cache, in the result. */
    Lookup get(String key, Function<String, String> make) {
        long nowMillis = System.currentTimeMillis();
        Entry entry = entries.get(key);
        if (entry != null && nowMillis < entry.expiresAtMillis) {
            counts.cacheHits.incrementAndGet();
            return new Lookup(entry.value, true);
        }
        counts.cacheMisses.incrementAndGet();
        String value = make.apply(key);
        entries.put(key, new Entry(value, nowMillis + TIME_TO_LIVE_MILLIS));
        return new Lookup(value, false);
    }

    record Lookup(String value, boolean cached) {
    }

    private record Entry(String value, long expiresAtMillis) {
    }
}
