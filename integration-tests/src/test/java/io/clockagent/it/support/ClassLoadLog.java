package io.clockagent.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The classes a forked JVM has loaded so far, from the file its {@code -Xlog:class+load} option writes; the JVM
 * writes each line as the class loads, so the file may be read while it runs.
 */
public final class ClassLoadLog {

    private final Path file;

    /** @param file where the JVM is told to write, through {@link #jvmOption()} */
    public ClassLoadLog(Path file) {
        this.file = file;
    }

    public String jvmOption() {
        return "-Xlog:class+load=info:file=" + file;
    }

    /** Whether the class with this binary name appears in the log, from any source. */
    public boolean loaded(String binaryName) {
        return !sources(binaryName).isEmpty();
    }

    /** The binary names of the classes loaded from a source whose description contains {@code sourcePart}. */
    public List<String> classesFrom(String sourcePart) {
        return lines().stream()
                .filter(line -> line.contains(" source: ")
                        && line.substring(line.indexOf(" source: ")).contains(sourcePart))
                .map(line -> line.substring(line.indexOf("] ") + 2, line.indexOf(" source: ")))
                .collect(Collectors.toList());
    }

    /**
     * Where the JVM says the class with this binary name came from, in order: such as {@code shared objects file}, a
     * jar's URL, or {@code __VM_RedefineClasses__} when it was retransformed.
     */
    public List<String> sources(String binaryName) {
        String entry = "] " + binaryName + " source: ";
        return lines().stream().filter(line -> line.contains(entry))
                .map(line -> line.substring(line.indexOf(entry) + entry.length()))
                .collect(Collectors.toList());
    }

    private List<String> lines() {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            if (lines.isEmpty()) {
                throw new AssertionError("the class-load log " + file + " is empty: the JVM never wrote it");
            }
            return lines;
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
    }
}
