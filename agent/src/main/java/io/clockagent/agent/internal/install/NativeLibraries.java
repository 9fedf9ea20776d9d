package io.clockagent.agent.internal.install;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Where the agent jar keeps the native library (the native start of every entry): one per
 * platform, in a folder named as the JVM names the platform ({@code os.name} and {@code os.arch},
 * {@code linux-amd64}), so that a JVM finds only a library built for it and never another. Which platforms a jar
 * carries depends on the compilers its build found. And how the library is written out: next to the jar for
 * {@code -agentpath}, or to a private file for the native start ({@link NativeStart}) to load it from, as the JVM
 * loads a library only from a file. Stateless. Public for the command line, which lists them.
 *
 * <p>The private file is written into a new directory that only this user may enter, so no other user can replace it
 * between the write and the load where the temporary directory is the usual sticky one (or private): without the sticky
 * bit, whoever may write there could move the whole directory aside. Both are created exclusively, so a name that
 * exists, or a link planted in its place, is refused and never followed. The directory is closed to others before the
 * file is created in it, so whatever another user of the same group might create in the moment between (under a umask
 * that lets the group write) can only make the exclusive creation fail. Deleting both right after the load leaves
 * nothing behind even if the JVM is killed later: the JVM's mapping outlives the name. That path is written with
 * {@code java.io} alone, {@code File} in and out, in this one class: the {@code -javaagent} entry writes the file
 * before {@code main}, where each JDK class that {@code java.nio.file} would load first, and each class of the agent's
 * own, read from the jar, verified and run in the interpreter, costs startup time (see
 * benchmarks/README.md#starting-through--javaagent).
 */
public final class NativeLibraries {

    private static final String FOLDER = "io/clockagent/agent/native/";
    /** The library's file name, in the jar and wherever it is written to be loaded. */
    public static final String FILE_NAME = "libclockagent.so";
    /** The file name the library's -agentpath entry looks for in its own folder (agent_entry.c). */
    public static final String AGENT_JAR_NAME = "clock-agent.jar";

    private NativeLibraries() {
    }

    /** The agent jar: the file that {@code agentClass}, one of the jar's own classes, was loaded from. */
    public static File jarOf(Class<?> agentClass) throws URISyntaxException {
        return new File(agentClass.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /** This JVM's platform, named as the library folders are: {@code linux-amd64}, {@code linux-aarch64}. */
    static String thisPlatform() {
        return System.getProperty("os.name").toLowerCase(Locale.ROOT) + "-" + System.getProperty("os.arch");
    }

    /** The resource that holds the library for a platform, whether the jar carries it or not. */
    static String resource(String platform) {
        return FOLDER + platform + "/" + FILE_NAME;
    }

    /**
     * Writes the library for this JVM's platform, from the agent jar, to a new directory in the temporary directory,
     * named by process and time rather than by {@code Files.createTempDirectory}, whose SecureRandom costs startup
     * time. The process id comes from Linux's {@code /proc/self} link, as {@code ProcessHandle.current()} starts the
     * JDK's process reaper, which costs startup time too (benchmarks/README.md, "What the agent's startup avoids"). The
     * jar is read as a zip file, which shares the JDK's open copy of it where a class loader has it open, rather than
     * through a class loader, whose search of the modules first and {@code jar:} URLs then cost the application class
     * loader more than a millisecond. Delete it with {@link #deletePrivateCopy} once loaded.
     *
     * @return the file, or null if the jar carries no library for this platform
     */
    public static File writePrivateCopy(File agentJar) throws IOException {
        try (ZipFile jar = new ZipFile(agentJar)) {
            ZipEntry entry = jar.getEntry(resource(thisPlatform()));
            if (entry == null) {
                return null;
            }
            String directoryName = "clock-agent-" + new File("/proc/self").getCanonicalFile().getName() + "-"
                    + System.nanoTime();
            long sizeBytes = entry.getSize();
            if (sizeBytes < 0 || sizeBytes > Integer.MAX_VALUE) {
                throw new IOException("the jar's entry for the library gives its size as " + sizeBytes + " bytes");
            }
            try (InputStream library = jar.getInputStream(entry)) {
                return writePrivateCopy(new File(System.getProperty("java.io.tmpdir")), directoryName, FILE_NAME,
                        library, (int) sizeBytes);
            }
        }
    }

    /**
     * Reads the {@code sizeBytes} bytes of {@code library}, in one read where the stream allows, then writes them to
     * {@code parent/directoryName/fileName} in one write; whatever fails after the directory is made deletes what was
     * made.
     *
     * @throws IOException if {@code library} holds fewer bytes, {@code directoryName} exists in {@code parent},
     *     whatever it is, or {@code parent} cannot take the directory or the file
     */
    static File writePrivateCopy(File parent, String directoryName, String fileName, InputStream library,
            int sizeBytes) throws IOException {
        byte[] bytes = new byte[sizeBytes];
        for (int read = 0, more; read < sizeBytes; read += more) {
            more = library.read(bytes, read, sizeBytes - read);
            if (more < 0) {
                throw new IOException("the library ends before its " + sizeBytes + " bytes");
            }
        }
        File directory = new File(parent, directoryName);
        if (!directory.mkdir()) {
            throw new IOException(directory + " exists or cannot be created");
        }
        File file = new File(directory, fileName);
        boolean written = false;
        try {
            if (!ownerOnly(directory)) {
                throw new IOException("could not close " + directory + " to other users");
            }
            if (!file.createNewFile()) {
                throw new IOException(file + " exists");
            }
            try (OutputStream out = new FileOutputStream(file)) {
                out.write(bytes);
            }
            written = true;
        } finally {
            if (!written) {
                deletePrivateCopy(file);
            }
        }
        return file;
    }

    /** Takes every permission from everyone but the owner, and gives the owner all of them. */
    private static boolean ownerOnly(File directory) {
        return directory.setWritable(false, false) && directory.setReadable(false, false)
                && directory.setExecutable(false, false) && directory.setReadable(true, true)
                && directory.setWritable(true, true) && directory.setExecutable(true, true);
    }

    /** Deletes a file {@link #writePrivateCopy} wrote, and its directory. */
    public static void deletePrivateCopy(File file) {
        file.delete();
        file.getParentFile().delete();
    }

    /**
     * Writes the library for this JVM's platform from the jar to {@code target}, replacing any file there.
     *
     * @throws IOException naming the platform and those the jar carries, if it carries none for this one
     */
    public static Path writeForThisPlatform(Path agentJar, Path target) throws IOException {
        String platform = thisPlatform();
        try (JarFile jar = new JarFile(agentJar.toFile())) {
            JarEntry library = jar.getJarEntry(resource(platform));
            if (library == null) {
                throw new IOException("this jar carries no library for " + platform + "; it carries: "
                        + String.join(", ", carriedBy(agentJar)));
            }
            try (InputStream in = jar.getInputStream(library)) {
                Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return target;
    }

    /** The platforms whose library the jar carries, in the jar's order. */
    public static List<String> carriedBy(Path agentJar) throws IOException {
        List<String> platforms = new ArrayList<>();
        try (JarFile jar = new JarFile(agentJar.toFile())) {
            for (Enumeration<JarEntry> entries = jar.entries(); entries.hasMoreElements();) {
                String name = entries.nextElement().getName();
                if (name.startsWith(FOLDER) && name.endsWith("/" + FILE_NAME)) {
                    platforms.add(name.substring(FOLDER.length(), name.length() - FILE_NAME.length() - 1));
                }
            }
        }
        return platforms;
    }
}
