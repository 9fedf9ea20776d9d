package io.clockagent.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** What can be learnt about a process before attaching, which otherwise only fails after a 10 s timeout. */
final class TargetJvm {

    private TargetJvm() {
    }

    static Optional<String> whyNotAttachable(long pid) {
        if (ProcessHandle.of(pid).isEmpty()) {
            return Optional.of("no process has that id");
        }
        Path proc = Path.of("/proc", Long.toString(pid));
        if (!Files.isDirectory(proc)) {
            return Optional.empty();
        }
        try {
            if (!Files.readString(proc.resolve("maps"), StandardCharsets.ISO_8859_1).contains("/libjvm.so")) {
                return Optional.of("it is not a JVM");
            }
            String commandLine = Files.readString(proc.resolve("cmdline"), StandardCharsets.ISO_8859_1);
            if (commandLine.contains("-XX:+DisableAttachMechanism")) {
                return Optional.of("attach is disabled in it (-XX:+DisableAttachMechanism)");
            }
        } catch (IOException unreadable) {
            String owner = ProcessHandle.of(pid).flatMap(p -> p.info().user()).orElse("another user");
            return Optional.of("it belongs to " + owner + "; run this command as that user");
        }
        return Optional.empty();
    }
}
