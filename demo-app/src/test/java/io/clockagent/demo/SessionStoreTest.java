package io.clockagent.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SessionStoreTest {

    @Test
    void numbersTheRequestsOfEachSessionFromOne() {
        SessionStore sessions = new SessionStore(1_000, 10);

        assertEquals(1, sessions.touch("a", 0));
        assertEquals(2, sessions.touch("a", 10));
        assertEquals(1, sessions.touch("b", 10));
        assertEquals(3, sessions.touch("a", 20));
    }

    @Test
    void eachRequestExtendsTheSessionAndIdlenessEndsIt() {
        SessionStore sessions = new SessionStore(1_000, 10);
        sessions.touch("a", 0);

        assertEquals(2, sessions.touch("a", 1_000), "idle exactly the timeout: still alive");
        assertEquals(3, sessions.touch("a", 2_000));
        assertEquals(1, sessions.touch("a", 3_001), "idle longer than the timeout: a new session");
    }

    @Test
    void whenFullDropsIdleSessions() {
        SessionStore sessions = new SessionStore(100, 2);
        sessions.touch("a", 0);
        sessions.touch("b", 150);

        sessions.touch("c", 150);

        assertEquals(2, sessions.size());
        assertEquals(2, sessions.touch("b", 160));
    }
}
