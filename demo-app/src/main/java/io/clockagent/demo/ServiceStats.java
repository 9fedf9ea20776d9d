package io.clockagent.demo;

import java.util.concurrent.atomic.LongAdder;

/**
 * What the service has done so far, counted once per request (never per clock read); safe for any number of
 * threads.
 */
final class ServiceStats {

    private final LongAdder requests = new LongAdder();
    private final LongAdder clockReads = new LongAdder();
    private final LongAdder throttled = new LongAdder();
    private final LongAdder deadlinesMissed = new LongAdder();
    private final LongAdder badRequests = new LongAdder();

    void requestDone(long clockReadsOfRequest) {
        clockReads.add(clockReadsOfRequest);
        requests.increment();
    }

    void throttled() {
        throttled.increment();
    }

    void deadlineMissed() {
        deadlinesMissed.increment();
    }

    void badRequest() {
        badRequests.increment();
    }

    long requests() {
        return requests.sum();
    }

    long clockReads() {
        return clockReads.sum();
    }

    long throttledCount() {
        return throttled.sum();
    }

    long deadlinesMissedCount() {
        return deadlinesMissed.sum();
    }

    long badRequestCount() {
        return badRequests.sum();
    }
}
