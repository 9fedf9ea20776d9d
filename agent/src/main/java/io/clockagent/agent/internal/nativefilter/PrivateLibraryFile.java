package io.clockagent.agent.internal.nativefilter;

import java.io.IOException;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * The file the JVM loads the native class filter from, as it loads a library only from a file. It is written into a
 * new directory that only this user may enter, so no other user can replace it between the write and the load, even
 * under a temporary directory without the sticky bit; both are created exclusively, so a name that exists, or a link
 * planted in its place, is refused and never followed. Closing deletes both: the JVM's mapping outlives the name, so
 * nothing is left behind even if the JVM is killed later.
 */
final class PrivateLibraryFile implements AutoCloseable {

    private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY = PosixFilePermissions.asFileAttribute(
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
                    PosixFilePermission.OWNER_EXECUTE));

    private final Path directory;
    private final Path file;

    private PrivateLibraryFile(Path directory, Path file) {
        this.directory = directory;
        this.file = file;
    }

    /**
     * Writes {@code library} to {@code parent/directoryName/fileName}.
     *
     * @throws java.nio.file.FileAlreadyExistsException if {@code directoryName} exists in {@code parent}, whatever
     *     it is
     * @throws IOException if {@code parent} cannot take the directory or the file
     */
    static PrivateLibraryFile write(Path parent, String directoryName, String fileName, InputStream library)
            throws IOException {
        Path directory = Files.createDirectory(parent.resolve(directoryName), OWNER_ONLY);
        Path file = directory.resolve(fileName);
        // java.io rather than a channel, whose classes would load for this one write on the startup path.
        try {
            if (!file.toFile().createNewFile()) {
                throw new FileAlreadyExistsException(file.toString());
            }
            try (OutputStream out = new FileOutputStream(file.toFile())) {
                library.transferTo(out);
            }
        } catch (IOException | RuntimeException failure) {
            Files.deleteIfExists(file);
            Files.deleteIfExists(directory);
            throw failure;
        }
        return new PrivateLibraryFile(directory, file);
    }

    Path file() {
        return file;
    }

    @Override
    public void close() throws IOException {
        Files.deleteIfExists(file);
        Files.deleteIfExists(directory);
    }
}
