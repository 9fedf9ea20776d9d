package kotlinx.coroutines.clockprobe

/**
 * A clock read in a package of kotlinx-coroutines: the agent rewrites a library's packages by default as it does the
 * service's own, which this shows at run time (see `ClockCost`).
 */
object LibraryClock {
    @JvmStatic
    fun now(): Long = System.currentTimeMillis()
}
