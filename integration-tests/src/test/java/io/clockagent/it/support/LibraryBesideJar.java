package io.clockagent.it.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The native library where an operator puts it for {@code -agentpath} and {@code JVMTI.agent_load}: beside a copy of
 * the agent jar, written there by the jar's own {@code agentpath} command. The library finds the jar by that place.
 */
public final class LibraryBesideJar {

    private LibraryBesideJar() {
    }

    /** The library for this machine, written by {@code jdk}; the calling test is skipped if the jar carries none. */
    public static Path write(Jdk jdk, Path runDirectory) throws IOException {
        NativeLibraries.requireForThisMachine();
        return write(new ForkedJvm(jdk, runDirectory), runDirectory);
    }

    /**
     * The agent jar copied into a folder of its own, and the library that its {@code agentpath} command, run by
     * {@code command}, wrote there for that JVM's platform.
     */
    public static Path write(ForkedJvm command, Path runDirectory) throws IOException {
        Path jar = Files.copy(BuildOutputs.agentJar(),
                Files.createDirectories(runDirectory.resolve("agent")).resolve("clock-agent.jar"));
        ForkResult written = command.runJar(jar, "agentpath");
        Path library = jar.resolveSibling("libclockagent.so");
        assertEquals(0, written.exitStatus(), written.describe());
        assertEquals(List.of("clock-agent: wrote " + library + "; start the service with -agentpath:" + library
                + "[=OPTIONS] (OPTIONS as for -javaagent)"), written.stdout(), written.describe());
        return library;
    }
}
