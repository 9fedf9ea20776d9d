package io.clockagent.demo;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The live sessions, replaced by a fresh one after {@code idleTimeoutMillis} without a request; safe for any number
 * of request threads. Reads the clock once per {@link #touch(String)}.
 */
final class SessionStore {

    private final long idleTimeoutMillis;
    private final int maxSessions;
    private final ConcurrentMap<String, Session> sessions = new ConcurrentHashMap<>();

    SessionStore(long idleTimeoutMillis, int maxSessions) {
        this.idleTimeoutMillis = idleTimeoutMillis;
        this.maxSessions = maxSessions;
    }

    /**
     * Stamps the session's last access, starting a new session if it is unknown or was idle too long.
     *
     * @return this request's number within the session, counting from 1
     */
    long touch(String sessionId) {
        long nowMillis = System.currentTimeMillis();
        return touch(sessionId, nowMillis);
    }

    long touch(String sessionId, long nowMillis) {
        if (sessions.size() >= maxSessions && !sessions.containsKey(sessionId)) {
            sessions.values().removeIf(session -> session.idleLongerThan(idleTimeoutMillis, nowMillis));
        }
        Session live = sessions.compute(sessionId, (id, session) ->
                session == null || session.idleLongerThan(idleTimeoutMillis, nowMillis) ? new Session(id, nowMillis)
                        : session);
        return live.stamp(nowMillis);
    }

    int size() {
        return sessions.size();
    }
}
