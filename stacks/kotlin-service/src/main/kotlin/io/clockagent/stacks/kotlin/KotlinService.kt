package io.clockagent.stacks.kotlin

import io.clockagent.stacks.console.StackConsole
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.clockprobe.LibraryClock
import kotlinx.coroutines.launch
import java.net.InetAddress
import java.net.ServerSocket
import java.util.function.LongSupplier

/**
 * A Kotlin service over TCP ([Session]) on kotlinx-coroutines: one coroutine per client. Listens on 127.0.0.1, on a
 * free port it prints as `listening PORT`, and takes [StackConsole]'s commands on stdin.
 */
fun main() {
    val counts = ServiceCounts()
    val server = ServerSocket(0, 50, InetAddress.getLoopbackAddress())
    val scope = CoroutineScope(SupervisorJob() + Dispatchers.IO)
    scope.launch {
        while (!server.isClosed) {
            val client = server.accept()
            launch { Session(client, counts).serve() }
        }
    }
    println("listening ${server.localPort}")
    // The lambda's body, a class or method the compiler generates in this package, reads the clock.
    val appClock = LongSupplier { System.currentTimeMillis() }
    StackConsole.serve({ counts.describe() }, appClock, LongSupplier { LibraryClock.now() })
}
