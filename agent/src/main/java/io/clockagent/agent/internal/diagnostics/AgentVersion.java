package io.clockagent.agent.internal.diagnostics;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** The project version, written into a resource by the build. */
public final class AgentVersion {

    private static final String RESOURCE = "version.txt";

    private AgentVersion() {
    }

    public static String read() {
        try (InputStream in = AgentVersion.class.getResourceAsStream(RESOURCE)) {
            return in == null ? "unknown" : new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        } catch (IOException unreadable) {
            return "unknown";
        }
    }
}
