package io.clockagent.it.support;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Assembles a jar from compiled classes and generated entries, for the JVMs the tests fork. Single-threaded. */
public final class JarBuilder {

    private final Manifest manifest = new Manifest();
    private final Map<String, byte[]> entries = new LinkedHashMap<>();

    public JarBuilder() {
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    }

    public JarBuilder manifestAttribute(String name, String value) {
        manifest.getMainAttributes().putValue(name, value);
        return this;
    }

    /**
     * Adds every file under {@code classesRoot/packagePath}, named relative to {@code classesRoot}.
     *
     * @param packagePath a directory in internal form, such as {@code io/clockagent/it/fixtures/loaded}
     */
    public JarBuilder addPackage(Path classesRoot, String packagePath) {
        Path directory = classesRoot.resolve(packagePath);
        try (Stream<Path> files = Files.walk(directory)) {
            List<Path> regularFiles = files.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
            if (regularFiles.isEmpty()) {
                throw new IllegalStateException("no files under " + directory);
            }
            for (Path file : regularFiles) {
                entries.put(classesRoot.relativize(file).toString().replace('\\', '/'), Files.readAllBytes(file));
            }
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
        return this;
    }

    public JarBuilder addEntry(String name, byte[] content) {
        entries.put(name, content.clone());
        return this;
    }

    public Path writeTo(Path jar) {
        try {
            Files.createDirectories(jar.getParent());
            try (OutputStream file = Files.newOutputStream(jar);
                    JarOutputStream out = new JarOutputStream(file, manifest)) {
                for (Map.Entry<String, byte[]> entry : entries.entrySet()) {
                    out.putNextEntry(new JarEntry(entry.getKey()));
                    out.write(entry.getValue());
                    out.closeEntry();
                }
            }
            return jar;
        } catch (IOException unwritable) {
            throw new UncheckedIOException(unwritable);
        }
    }
}
