package io.clockagent.stacks.netty;

import java.util.concurrent.atomic.AtomicLong;

/** What the service has done, for the {@code stats} command; updated by every event loop thread. */
final class ServiceCounts {

    final AtomicLong requests = new AtomicLong();
    final AtomicLong timedOut = new AtomicLong();
    final AtomicLong idleClosed = new AtomicLong();

    String describe() {
        return "requests=" + requests.get() + " timedOut=" + timedOut.get() + " idleClosed=" + idleClosed.get();
    }
}
