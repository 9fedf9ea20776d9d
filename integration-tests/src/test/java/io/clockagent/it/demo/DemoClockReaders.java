package io.clockagent.it.demo;

import io.clockagent.it.support.ClockReferences;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/** Finds the classes of a jar that read {@code System.currentTimeMillis()}, as they were compiled. Stateless. */
final class DemoClockReaders {

    private static final String SUFFIX = ".class";

    private DemoClockReaders() {
    }

    /**
     * The classes under {@code packageName}, subpackages included, that call the system clock or refer to it by a
     * method reference: internal name to bytes as stored in the jar.
     */
    static Map<String, byte[]> in(Path jar, String packageName) {
        String prefix = packageName.replace('.', '/') + "/";
        Map<String, byte[]> readers = new TreeMap<>();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            Enumeration<? extends ZipEntry> entries = zip.entries();
            while (entries.hasMoreElements()) {
                ZipEntry entry = entries.nextElement();
                String name = entry.getName();
                if (name.startsWith(prefix) && name.endsWith(SUFFIX)) {
                    byte[] classFile;
                    try (InputStream in = zip.getInputStream(entry)) {
                        classFile = in.readAllBytes();
                    }
                    if (ClockReferences.in(classFile).readsSystemClock()) {
                        readers.put(name.substring(0, name.length() - SUFFIX.length()), classFile);
                    }
                }
            }
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
        return readers;
    }
}
