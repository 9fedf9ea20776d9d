package io.clockagent.demo;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/** CPU time of this whole JVM process, all threads and the JIT and GC included. Stateless. */
final class ProcessCpu {

    static final long NOT_MEASURED = -1L;

    private ProcessCpu() {
    }

    static long cpuNanos() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            long cpuNanos = ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
            return cpuNanos < 0 ? NOT_MEASURED : cpuNanos;
        }
        return NOT_MEASURED;
    }
}
