package io.clockagent.agent.internal.clock;

import io.clockagent.agent.bootstrap.CachedClock;
import java.lang.invoke.MethodHandles;

/** What the tests of the ticker and of the rooms that start it need to reach. */
public final class Tickers {

    private Tickers() {
    }

    /** The write side of the un-renamed clock class, as the agent's writer reaches the renamed one. */
    public static CachedClockWriter writer() throws ReflectiveOperationException {
        return new CachedClockWriter(CachedClock.class,
                MethodHandles.privateLookupIn(CachedClock.class, MethodHandles.lookup()));
    }

    /** Whether the ticker's thread has started and not yet ended. */
    public static boolean isAlive(Ticker ticker) {
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getId() == ticker.threadId()) {
                return true;
            }
        }
        return false;
    }
}
