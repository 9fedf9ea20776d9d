package io.clockagent.agent.internal;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** The kernel clocksource behind {@code System.currentTimeMillis()}, which decides what a direct call costs. */
final class HostClocksource {

    private static final String LINUX_CURRENT_CLOCKSOURCE =
            "/sys/devices/system/clocksource/clocksource0/current_clocksource";

    private HostClocksource() {
    }

    /** For example {@code tsc}, {@code hpet}, {@code xen}; or a note saying why it could not be read. */
    static String describe() {
        try (FileInputStream in = new FileInputStream(LINUX_CURRENT_CLOCKSOURCE)) {
            String name = new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim();
            return name.isEmpty() ? "unknown" : name;
        } catch (IOException | SecurityException unreadable) {
            return "unknown (no " + LINUX_CURRENT_CLOCKSOURCE + " on " + System.getProperty("os.name") + ")";
        }
    }
}
