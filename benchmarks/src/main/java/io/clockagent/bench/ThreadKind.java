package io.clockagent.bench;

import java.util.List;

/**
 * Who a thread of a measured service works for, told from its name as the kernel holds it (the first 15 bytes of the
 * Java name): the agent's ticker, the JVM's own threads, or the application (every other thread, the JDK's pools that
 * run application work included).
 */
enum ThreadKind {

    TICKER,
    JVM,
    APPLICATION;

    /** {@code Ticker.THREAD_NAME}, cut where the kernel cuts thread names. */
    static final String TICKER_NAME = "clock-agent-tic";

    /**
     * HotSpot's threads, and the JDK's housekeeping threads that run no application code, by name prefix as the kernel
     * holds them on JDK 11 to 25 (for example "C2 CompilerThre" for "C2 CompilerThread0").
     */
    static final List<String> JVM_NAME_PREFIXES = List.of("VM Thread", "VM Periodic Tas", "GC Thread", "G1 ",
            "C1 CompilerThre", "C2 CompilerThre", "Sweeper thread", "Signal Dispatch", "Service Thread",
            "Monitor Deflati", "Reference Handl", "Finalizer", "Common-Cleaner", "Notification Th", "Attach Listener",
            "JFR ", "VM JFR");

    static ThreadKind of(String kernelName) {
        if (kernelName.equals(TICKER_NAME)) {
            return TICKER;
        }
        return JVM_NAME_PREFIXES.stream().anyMatch(kernelName::startsWith) ? JVM : APPLICATION;
    }
}
