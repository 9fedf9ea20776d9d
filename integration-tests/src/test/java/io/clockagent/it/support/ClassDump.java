package io.clockagent.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The classes a forked JVM defined, as the inspector agent recorded them: for each class loader, each class's
 * internal name and the bytes the JVM defined it from. Immutable once read.
 */
public final class ClassDump {

    /** Loader label, then internal name, then bytes. */
    private final Map<String, Map<String, byte[]>> classesByLoader = new TreeMap<>();

    private ClassDump() {
    }

    /** Reads the directory given to the inspector agent, after the forked JVM exited. */
    public static ClassDump readFrom(Path directory) {
        ClassDump dump = new ClassDump();
        if (!Files.isDirectory(directory)) {
            return dump;
        }
        try (Stream<Path> loaders = Files.list(directory)) {
            for (Path loader : (Iterable<Path>) loaders::iterator) {
                dump.classesByLoader.put(loader.getFileName().toString(), ClassFiles.under(loader, ""));
            }
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
        return dump;
    }

    /**
     * The classes a loader defined, by internal name.
     *
     * @param loaderLabel {@code boot}, {@code platform}, {@code app}, or a custom loader's name
     */
    public Map<String, byte[]> definedBy(String loaderLabel) {
        return classesByLoader.getOrDefault(loaderLabel, Map.of());
    }

    /** Every recorded class, keyed {@code LOADER/internal/Name}. */
    public Map<String, byte[]> all() {
        Map<String, byte[]> classes = new TreeMap<>();
        classesByLoader.forEach((label, definedBy) ->
                definedBy.forEach((name, bytes) -> classes.put(label + "/" + name, bytes)));
        return classes;
    }

    /** The bytes a loader defined a class from; fails the test when the loader never defined it. */
    public byte[] classFile(String loaderLabel, String internalName) {
        byte[] bytes = definedBy(loaderLabel).get(internalName);
        if (bytes == null) {
            throw new AssertionError("the inspector saw no class " + internalName + " defined by loader '"
                    + loaderLabel + "'; it saw " + definedBy(loaderLabel).size() + " classes from that loader,"
                    + " and these loaders: " + classesByLoader.keySet());
        }
        return bytes;
    }
}
