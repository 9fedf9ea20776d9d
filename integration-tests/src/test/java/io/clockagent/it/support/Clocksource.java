package io.clockagent.it.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The kernel clocksource of the machine the tests run on, for the headers of the tables they print. */
public final class Clocksource {

    private static final Path LINUX_CURRENT_CLOCKSOURCE =
            Path.of("/sys/devices/system/clocksource/clocksource0/current_clocksource");

    private Clocksource() {
    }

    /** For example {@code tsc}, {@code kvm-clock} or {@code hpet}; {@code unknown} where the kernel does not say. */
    public static String current() {
        try {
            String name = Files.readString(LINUX_CURRENT_CLOCKSOURCE, StandardCharsets.US_ASCII).trim();
            return name.isEmpty() ? "unknown" : name;
        } catch (IOException | RuntimeException unreadable) {
            return "unknown";
        }
    }
}
