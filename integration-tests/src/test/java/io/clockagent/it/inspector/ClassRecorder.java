package io.clockagent.it.inspector;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.instrument.ClassFileTransformer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.ProtectionDomain;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps the bytes of each class as this transformer receives them, and never changes a class. Called concurrently
 * by every thread that loads classes; {@link #writeTo} runs once, at JVM exit.
 *
 * <p>Bytes are kept in memory and written only at exit: file I/O inside {@code transform} would load classes
 * while a class is being loaded.
 */
final class ClassRecorder implements ClassFileTransformer {

    /** Key: {@code LOADER/internal/ClassName}, where LOADER is {@link #loaderLabel}. */
    private final Map<String, byte[]> classFiles = new ConcurrentHashMap<>();

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> classBeingRedefined,
            ProtectionDomain protectionDomain, byte[] classFile) {
        if (className != null && classBeingRedefined == null) {
            classFiles.put(loaderLabel(loader) + "/" + className, classFile.clone());
        }
        return null;
    }

    /**
     * {@code boot}, {@code platform} and {@code app} for the JDK's loaders, the name a custom loader was given, or
     * else its class's simple name.
     */
    private static String loaderLabel(ClassLoader loader) {
        if (loader == null) {
            return "boot";
        }
        String name = loader.getName();
        return name != null ? name : loader.getClass().getSimpleName();
    }

    /** Writes each recorded class to {@code directory/LOADER/internal/ClassName.class}. */
    void writeTo(Path directory) {
        try {
            for (Map.Entry<String, byte[]> recorded : classFiles.entrySet()) {
                Path file = directory.resolve(recorded.getKey() + ".class");
                Files.createDirectories(file.getParent());
                Files.write(file, recorded.getValue());
            }
        } catch (IOException unwritable) {
            throw new UncheckedIOException(unwritable);
        }
    }
}
