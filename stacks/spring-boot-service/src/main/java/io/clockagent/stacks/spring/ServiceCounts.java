package io.clockagent.stacks.spring;

import java.util.concurrent.atomic.AtomicLong;
import org.springframework.stereotype.Component;

/** What the service has done, for the {@code stats} command; updated by Tomcat's and the scheduler's threads. */
@Component
public class ServiceCounts {

    final AtomicLong requests = new AtomicLong();
    final AtomicLong cacheHits = new AtomicLong();
    final AtomicLong cacheMisses = new AtomicLong();
    final AtomicLong heartbeats = new AtomicLong();

    String describe() {
        return "requests=" + requests.get() + " cacheHits=" + cacheHits.get() + " cacheMisses=" + cacheMisses.get()
                + " heartbeats=" + heartbeats.get();
    }
}
