package io.clockagent.it.support;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * A JDK for another architecture, run on this machine under qemu's user-mode emulation: the aarch64 Temurin runtime
 * that {@code integration-tests/fetch-jdks.sh --aarch64} fetches, named by {@code $CLOCK_AGENT_AARCH64_JDK}, run by
 * Debian's {@code qemu-aarch64} with the aarch64 C library of the cross compiler's sysroot. A real JVM of that
 * architecture loads the agent and the jar's library for it, as on an aarch64 server, only slower.
 */
public final class EmulatedJdk {

    public static final String AARCH64_HOME_VARIABLE = "CLOCK_AGENT_AARCH64_JDK";
    private static final String AARCH64_EMULATOR = "qemu-aarch64";
    /** Where Debian's libc6-arm64-cross, which gcc-aarch64-linux-gnu brings, keeps the aarch64 loader and C library. */
    private static final Path AARCH64_SYSROOT = Path.of("/usr/aarch64-linux-gnu");

    private final Jdk jdk;
    private final List<String> emulatorCommand;

    private EmulatedJdk(Jdk jdk, List<String> emulatorCommand) {
        this.jdk = jdk;
        this.emulatorCommand = emulatorCommand;
    }

    /**
     * The aarch64 JDK and its emulator. Where either is missing, prints a notice to stdout and aborts the calling test
     * through a JUnit assumption, which reports it as skipped.
     */
    public static EmulatedJdk requireAarch64() {
        String home = System.getenv().getOrDefault(AARCH64_HOME_VARIABLE, "");
        Optional<Integer> feature = home.isBlank() ? Optional.empty() : Jdks.featureVersionOf(Path.of(home));
        Optional<Path> emulator = onPath(AARCH64_EMULATOR);
        List<String> missing = new ArrayList<>();
        if (feature.isEmpty()) {
            missing.add("aarch64 JDK in $" + AARCH64_HOME_VARIABLE + " (integration-tests/fetch-jdks.sh --aarch64"
                    + " fetches one)");
        }
        if (emulator.isEmpty()) {
            missing.add(AARCH64_EMULATOR + " (Debian: apt-get install qemu-user)");
        }
        if (!Files.isDirectory(AARCH64_SYSROOT.resolve("lib"))) {
            missing.add(AARCH64_SYSROOT + " (Debian: apt-get install gcc-aarch64-linux-gnu)");
        }
        if (!missing.isEmpty()) {
            String notice = "NOTICE: no " + String.join(", no ", missing) + "; this run on an emulated aarch64 JVM is"
                    + " SKIPPED, not passed.";
            System.out.println(notice);
            Assumptions.abort(notice);
        }
        return new EmulatedJdk(new Jdk(feature.get(), Path.of(home)),
                List.of(emulator.get().toString(), "-L", AARCH64_SYSROOT.toString()));
    }

    public Jdk jdk() {
        return jdk;
    }

    /** The emulator's launcher and options, for {@link ForkedJvm#emulatedBy}. */
    public List<String> emulatorCommand() {
        return emulatorCommand;
    }

    private static Optional<Path> onPath(String command) {
        for (String directory : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(directory, command);
            if (!directory.isBlank() && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
