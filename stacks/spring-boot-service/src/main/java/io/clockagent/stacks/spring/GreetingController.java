package io.clockagent.stacks.spring;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /greet?name=N}: a greeting as JSON, from the cache while it lasts; each request is logged. */
@RestController
public class GreetingController {

    private static final Logger LOG = LoggerFactory.getLogger(GreetingController.class);

    private final ExpiringCache cache;
    private final Heartbeat heartbeat;
    private final ServiceCounts counts;

    public GreetingController(ExpiringCache cache, Heartbeat heartbeat, ServiceCounts counts) {
        this.cache = cache;
        this.heartbeat = heartbeat;
        this.counts = counts;
    }

    @GetMapping("/greet")
    public Greeting greet(@RequestParam("name") String name) {
        counts.requests.incrementAndGet();
        ExpiringCache.Lookup lookup = cache.get(name, key -> "hello " + key);
        LOG.info("greeted {} (cached: {})", name, lookup.cached());
        return new Greeting(lookup.value(), lookup.cached(), System.currentTimeMillis(), heartbeat.lastBeatMillis());
    }

    /** The answer, as Jackson writes it. */
    public record Greeting(String greeting, boolean cached, long servedAtMillis, long lastHeartbeatMillis) {
    }
}
