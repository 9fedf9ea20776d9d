package io.clockagent.stacks.kotlin

import java.util.concurrent.atomic.AtomicLong

/** What the service has done, for the `stats` command; updated by every coroutine. */
class ServiceCounts {
    val requests = AtomicLong()
    val timedOut = AtomicLong()

    fun describe() = "requests=${requests.get()} timedOut=${timedOut.get()}"
}
