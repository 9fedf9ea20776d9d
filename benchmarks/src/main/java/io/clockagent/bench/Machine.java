package io.clockagent.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;

/** The facts a reader needs next to a figure: which JDK, which clocksource, how many CPUs, and when. */
final class Machine {

    private static final Path CLOCKSOURCE = Path.of("/sys/devices/system/clocksource/clocksource0/current_clocksource");
    private static final Path LOAD_AVERAGE = Path.of("/proc/loadavg");
    private static final Path CPU_PRESSURE = Path.of("/proc/pressure/cpu");

    private Machine() {
    }

    /** Describes this JVM; the runner that launches another JDK names that one itself. */
    static String describe() {
        return "JDK " + System.getProperty("java.runtime.version") + " (" + System.getProperty("java.vm.name")
                + "), " + hostFacts();
    }

    static String hostFacts() {
        return "clocksource " + clocksource() + ", " + Runtime.getRuntime().availableProcessors() + " CPUs, "
                + System.getProperty("os.name") + " " + System.getProperty("os.arch") + ", " + LocalDate.now();
    }

    /**
     * The 1-, 5- and 15-minute load averages and the CPU pressure of the last minute: on a shared machine, other work
     * running at the same time is the first suspect for a noisy figure, so the runners print this before and after
     * they measure.
     */
    static String loadAverage() {
        String[] load = read(LOAD_AVERAGE).split(" ");
        String loadText = load.length >= 3 ? "load average " + load[0] + " " + load[1] + " " + load[2] : "load unknown";
        // "some avg60=12.34 ...": the share of the last minute in which some runnable thread waited for a CPU.
        String pressure = read(CPU_PRESSURE);
        int start = pressure.indexOf("avg60=");
        return start < 0 ? loadText
                : loadText + ", CPU pressure " + pressure.substring(start, pressure.indexOf(' ', start)) + "%";
    }

    private static String clocksource() {
        return read(CLOCKSOURCE);
    }

    private static String read(Path file) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.US_ASCII).trim();
        } catch (IOException | SecurityException unreadable) {
            return "unknown";
        }
    }
}
