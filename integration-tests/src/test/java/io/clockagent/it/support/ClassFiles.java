package io.clockagent.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Reads the class files in a directory tree, keyed by internal name. */
public final class ClassFiles {

    private static final String SUFFIX = ".class";

    private ClassFiles() {
    }

    /**
     * The class files under {@code root/packagePath}, subpackages included, each named relative to {@code root}
     * without {@code .class}: {@code io/clockagent/it/fixtures/shapes/EnumClock$1}. Empty when there is no such
     * directory.
     *
     * @param packagePath a package in internal form, or the empty string for everything under {@code root}
     */
    public static Map<String, byte[]> under(Path root, String packagePath) {
        Map<String, byte[]> classes = new TreeMap<>();
        Path directory = root.resolve(packagePath);
        if (!Files.isDirectory(directory)) {
            return classes;
        }
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                String relative = root.relativize(file).toString().replace('\\', '/');
                if (Files.isRegularFile(file) && relative.endsWith(SUFFIX)) {
                    classes.put(relative.substring(0, relative.length() - SUFFIX.length()), Files.readAllBytes(file));
                }
            }
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
        return classes;
    }

    /** One class file, by internal name. */
    public static byte[] read(Path root, String internalName) {
        try {
            return Files.readAllBytes(root.resolve(internalName + SUFFIX));
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
    }

    /** Writes a class file where a class path rooted at {@code root} finds it. */
    public static void write(Path root, String binaryName, byte[] classFile) {
        Path file = root.resolve(binaryName.replace('.', '/') + SUFFIX);
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, classFile);
        } catch (IOException unwritable) {
            throw new UncheckedIOException(unwritable);
        }
    }
}
