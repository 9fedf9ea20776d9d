package io.clockagent.agent.internal.diagnostics;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** The kernel clocksource behind {@code System.currentTimeMillis()}, which decides what a direct call costs. */
public final class HostClocksource {

    static final String LINUX_CURRENT_CLOCKSOURCE =
            "/sys/devices/system/clocksource/clocksource0/current_clocksource";
    private static final String LINUX_AVAILABLE_CLOCKSOURCES =
            "/sys/devices/system/clocksource/clocksource0/available_clocksource";

    private HostClocksource() {
    }

    /** For example {@code tsc}, {@code hpet}, {@code xen}; or a note saying why it could not be read. */
    public static String describe() {
        String name = read(LINUX_CURRENT_CLOCKSOURCE);
        return name != null ? name : unknown(System.getProperty("os.name"));
    }

    /** What {@link #describe} says where the clocksource cannot be read on the named OS. */
    static String unknown(String osName) {
        return "unknown (no " + LINUX_CURRENT_CLOCKSOURCE + " on " + osName + ")";
    }

    /** The clocksources the kernel could switch to, or null where they cannot be read. */
    static String available() {
        return read(LINUX_AVAILABLE_CLOCKSOURCES);
    }

    private static String read(String file) {
        try (FileInputStream in = new FileInputStream(file)) {
            String text = new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim();
            return text.isEmpty() ? null : text;
        } catch (IOException | SecurityException unreadable) {
            return null;
        }
    }
}
