package io.clockagent.demo;

import java.util.concurrent.atomic.AtomicLong;

/** One client session: when it was last used and how many requests it has served; safe for any thread. */
final class Session {

    private final String id;
    private volatile long lastAccessMillis;
    private final AtomicLong requests = new AtomicLong();

    Session(String id, long createdMillis) {
        this.id = id;
        this.lastAccessMillis = createdMillis;
    }

    /** Stamps the access time and returns this request's number within the session, counting from 1. */
    long stamp(long nowMillis) {
        lastAccessMillis = nowMillis;
        return requests.incrementAndGet();
    }

    boolean idleLongerThan(long idleTimeoutMillis, long nowMillis) {
        return nowMillis - lastAccessMillis > idleTimeoutMillis;
    }

    String id() {
        return id;
    }

    long lastAccessMillis() {
        return lastAccessMillis;
    }
}
