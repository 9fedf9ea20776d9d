package io.clockagent.stacks.kotlin

import kotlinx.coroutines.TimeoutCancellationException
import kotlinx.coroutines.delay
import kotlinx.coroutines.withTimeout
import java.io.PrintWriter
import java.net.Socket
import kotlin.system.measureTimeMillis

/** How long a request may take before it is answered with `timeout`. */
const val DEADLINE_MILLIS = 200L

/**
 * Runs [block] and returns its result with the wall-clock time it finished at: inline, so the compiler copies this
 * clock read into every caller, in the caller's class.
 */
inline fun <T> stamped(block: () -> T): Pair<T, Long> {
    val result = block()
    return result to System.currentTimeMillis()
}

/**
 * One client's connection, a request per line: `work MILLIS` answers `done MILLIS took ELAPSED at STAMP` after
 * sleeping that long, or `timeout MILLIS` past the deadline; `stamp` answers `stamp MILLIS`.
 */
class Session(private val socket: Socket, private val counts: ServiceCounts) {

    suspend fun serve() {
        socket.use {
            val input = socket.getInputStream().bufferedReader()
            val output = PrintWriter(socket.getOutputStream(), true)
            while (true) {
                val request = input.readLine() ?: break
                counts.requests.incrementAndGet()
                output.println(answer(request.split(" ")))
            }
        }
    }

    private suspend fun answer(request: List<String>): String = when {
        request.size == 2 && request[0] == "work" -> work(request[1].toLong())
        request.size == 1 && request[0] == "stamp" -> "stamp ${clock()}"
        else -> "error: unknown request; valid: work MILLIS, stamp"
    }

    private suspend fun work(millis: Long): String = try {
        withTimeout(DEADLINE_MILLIS) {
            var elapsed = 0L
            val (_, finishedAt) = stamped { elapsed = measureTimeMillis { delay(millis) } }
            "done $millis took $elapsed at $finishedAt"
        }
    } catch (late: TimeoutCancellationException) {
        counts.timedOut.incrementAndGet()
        "timeout $millis"
    }

    private companion object {
        /** A clock read in a lambda, which the compiler turns into a method or class of its own. */
        val clock: () -> Long = { System.currentTimeMillis() }
    }
}
