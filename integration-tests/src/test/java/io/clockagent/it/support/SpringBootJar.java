package io.clockagent.it.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;

/**
 * Lays out a Spring Boot executable jar the way Spring Boot's build plugins do: the launcher's classes at the root,
 * the application's classes under {@code BOOT-INF/classes/}, and its libraries as whole jars under
 * {@code BOOT-INF/lib/}, stored uncompressed, as Spring Boot's nested-jar support requires. Single-threaded.
 */
public final class SpringBootJar {

    private final Map<String, byte[]> compressed = new LinkedHashMap<>();
    private final Map<String, byte[]> stored = new LinkedHashMap<>();
    private String jarLauncher;

    /** Copies every file of the {@code spring-boot-loader} jar except its manifest to the root. */
    public SpringBootJar launcher(SpringBootLoader springBootLoader) {
        jarLauncher = springBootLoader.jarLauncher();
        try (JarFile loader = new JarFile(springBootLoader.jar().toFile())) {
            for (Enumeration<JarEntry> entries = loader.entries(); entries.hasMoreElements(); ) {
                JarEntry entry = entries.nextElement();
                if (!entry.isDirectory() && !entry.getName().equals(JarFile.MANIFEST_NAME)) {
                    try (InputStream in = loader.getInputStream(entry)) {
                        compressed.put(entry.getName(), in.readAllBytes());
                    }
                }
            }
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
        return this;
    }

    /** Adds the class files of one package, subpackages included, under {@code BOOT-INF/classes/}. */
    public SpringBootJar applicationPackage(Path classesRoot, String packagePath) {
        ClassFiles.under(classesRoot, packagePath).forEach((internalName, classFile) ->
                compressed.put("BOOT-INF/classes/" + internalName + ".class", classFile));
        return this;
    }

    /** Adds a library jar, stored, as {@code BOOT-INF/lib/FILE_NAME}. */
    public SpringBootJar library(Path jar) {
        try {
            stored.put("BOOT-INF/lib/" + jar.getFileName(), Files.readAllBytes(jar));
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
        return this;
    }

    public Path writeTo(Path jar, String startClass) {
        Manifest manifest = new Manifest();
        Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.put(Attributes.Name.MAIN_CLASS, jarLauncher);
        main.putValue("Start-Class", startClass);
        main.putValue("Spring-Boot-Classes", "BOOT-INF/classes/");
        main.putValue("Spring-Boot-Lib", "BOOT-INF/lib/");
        try (OutputStream file = Files.newOutputStream(jar);
                JarOutputStream out = new JarOutputStream(file, manifest)) {
            // JarLauncher finds BOOT-INF/classes/ by its directory entry, so every directory gets one, as in jars
            // that build tools write.
            for (String directory : directories()) {
                out.putNextEntry(new JarEntry(directory));
                out.closeEntry();
            }
            for (Map.Entry<String, byte[]> entry : compressed.entrySet()) {
                out.putNextEntry(new JarEntry(entry.getKey()));
                out.write(entry.getValue());
                out.closeEntry();
            }
            for (Map.Entry<String, byte[]> entry : stored.entrySet()) {
                out.putNextEntry(storedEntry(entry.getKey(), entry.getValue()));
                out.write(entry.getValue());
                out.closeEntry();
            }
            return jar;
        } catch (IOException unwritable) {
            throw new UncheckedIOException(unwritable);
        }
    }

    private Set<String> directories() {
        Set<String> directories = new TreeSet<>();
        for (String file : compressed.keySet()) {
            addParents(directories, file);
        }
        for (String file : stored.keySet()) {
            addParents(directories, file);
        }
        return directories;
    }

    private static void addParents(Set<String> directories, String file) {
        for (int slash = file.indexOf('/'); slash >= 0; slash = file.indexOf('/', slash + 1)) {
            directories.add(file.substring(0, slash + 1));
        }
    }

    /** A stored entry must state its size and checksum before its data. */
    private static JarEntry storedEntry(String name, byte[] content) {
        JarEntry entry = new JarEntry(name);
        CRC32 crc = new CRC32();
        crc.update(content);
        entry.setMethod(ZipEntry.STORED);
        entry.setSize(content.length);
        entry.setCompressedSize(content.length);
        entry.setCrc(crc.getValue());
        return entry;
    }
}
