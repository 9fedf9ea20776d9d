package io.clockagent.agent.internal.nativefilter;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The file the JVM loads the native library from, as it loads a library only from a file. It is written into a
 * new directory that only this user may enter, so no other user can replace it between the write and the load, even
 * under a temporary directory without the sticky bit; both are created exclusively, so a name that exists, or a link
 * planted in its place, is refused and never followed. The directory is closed to others before the file is created
 * in it, so whatever another user of the same group might create in the moment between (under a umask that lets the
 * group write) can only make the exclusive creation fail. Closing deletes both: the JVM's mapping outlives the name,
 * so nothing is left behind even if the JVM is killed later.
 *
 * <p>Written with {@code java.io} alone, {@code File} in and out: the {@code -javaagent} entry writes it before
 * {@code main}, where each JDK class that {@code java.nio.file} would load first costs startup time.
 */
public final class PrivateLibraryFile implements AutoCloseable {

    private final File directory;
    private final File file;

    private PrivateLibraryFile(File directory, File file) {
        this.directory = directory;
        this.file = file;
    }

    /**
     * Writes the library for this JVM's platform, from the agent jar, to a new directory in the temporary directory,
     * named by process and time rather than by {@code Files.createTempDirectory}, whose SecureRandom costs startup
     * time. The process id comes from Linux's {@code /proc/self} link, as {@code ProcessHandle.current()} starts the
     * JDK's process reaper, which costs startup time too (benchmarks/README.md, "What the agent's startup avoids"). The jar is read as a zip file, which shares
     * the JDK's open copy of it where a class loader has it open, rather than through a class loader, whose search of
     * the modules first and {@code jar:} URLs then cost the application class loader more than a millisecond.
     *
     * @return the file, or null if the jar carries no library for this platform
     */
    public static PrivateLibraryFile writeForThisPlatform(File agentJar) throws IOException {
        try (ZipFile jar = new ZipFile(agentJar)) {
            ZipEntry entry = jar.getEntry(NativeLibraries.resource(NativeLibraries.thisPlatform()));
            if (entry == null) {
                return null;
            }
            String directoryName = "clock-agent-" + new File("/proc/self").getCanonicalFile().getName() + "-"
                    + System.nanoTime();
            try (InputStream library = jar.getInputStream(entry)) {
                return write(new File(System.getProperty("java.io.tmpdir")), directoryName, NativeLibraries.FILE_NAME,
                        library);
            }
        }
    }

    /**
     * Writes {@code library} to {@code parent/directoryName/fileName}.
     *
     * @throws IOException if {@code directoryName} exists in {@code parent}, whatever it is, or {@code parent} cannot
     *     take the directory or the file
     */
    static PrivateLibraryFile write(File parent, String directoryName, String fileName, InputStream library)
            throws IOException {
        File directory = new File(parent, directoryName);
        if (!directory.mkdir()) {
            throw new IOException(directory + " exists or cannot be created");
        }
        File file = new File(directory, fileName);
        try {
            if (!ownerOnly(directory)) {
                throw new IOException("could not close " + directory + " to other users");
            }
            if (!file.createNewFile()) {
                throw new IOException(file + " exists");
            }
            try (OutputStream out = new FileOutputStream(file)) {
                library.transferTo(out);
            }
        } catch (IOException | RuntimeException failure) {
            file.delete();
            directory.delete();
            throw failure;
        }
        return new PrivateLibraryFile(directory, file);
    }

    /** Takes every permission from everyone but the owner, and gives the owner all of them. */
    private static boolean ownerOnly(File directory) {
        return directory.setWritable(false, false) && directory.setReadable(false, false)
                && directory.setExecutable(false, false) && directory.setReadable(true, true)
                && directory.setWritable(true, true) && directory.setExecutable(true, true);
    }

    public File file() {
        return file;
    }

    @Override
    public void close() {
        file.delete();
        directory.delete();
    }
}
