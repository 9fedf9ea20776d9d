package io.clockagent.stacks.spring;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/** A task on Spring's scheduler, as services run for housekeeping; counts its runs. */
@Component
public class Heartbeat {

    static final long PERIOD_MILLIS = 50;

    private final ServiceCounts counts;
    private volatile long lastBeatMillis;

    public Heartbeat(ServiceCounts counts) {
        this.counts = counts;
    }

    @Scheduled(fixedRate = PERIOD_MILLIS)
    public void beat() {
        lastBeatMillis = System.currentTimeMillis();
        counts.heartbeats.incrementAndGet();
    }

    long lastBeatMillis() {
        return lastBeatMillis;
    }
}
