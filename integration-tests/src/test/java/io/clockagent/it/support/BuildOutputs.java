package io.clockagent.it.support;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the Maven build hands these tests through Surefire's system properties (see this module's pom.xml): the
 * packaged agent and the files the forked JVMs run.
 */
public final class BuildOutputs {

    private BuildOutputs() {
    }

    /** The agent jar as shipped, {@code agent/target/clock-agent.jar}. */
    public static Path agentJar() {
        return existingFile("clockagent.jar");
    }

    /** The project version, which the agent's banner states. */
    public static String agentVersion() {
        return property("clockagent.version");
    }

    /** This module's compiled test classes: the fixtures and the inspector agent. */
    public static Path testClasses() {
        return existingFile("clockagent.testClasses");
    }

    /** The Byte Buddy jar the "service with its own Byte Buddy" fixture runs with. */
    public static Path serviceByteBuddyJar() {
        return existingFile("clockagent.serviceByteBuddyJar");
    }

    public static String serviceByteBuddyVersion() {
        return property("clockagent.serviceByteBuddyVersion");
    }

    private static Path existingFile(String key) {
        Path path = Path.of(property(key)).toAbsolutePath().normalize();
        if (!Files.exists(path)) {
            throw new IllegalStateException(key + " points to " + path + ", which does not exist; build with"
                    + " 'mvn -B verify' from the repository root so the agent jar is packaged first");
        }
        return path;
    }

    private static String property(String key) {
        String value = System.getProperty(key);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("system property " + key + " is not set; run these tests through Maven"
                    + " (mvn -B verify from the repository root), which sets it");
        }
        return value;
    }
}
