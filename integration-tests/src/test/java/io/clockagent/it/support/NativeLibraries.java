package io.clockagent.it.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Assumptions;

/**
 * The native class filter libraries in the agent jar as built, read from its entries: a build without a C compiler
 * makes a jar without them, and the tests that need the one for this machine are then skipped, never passed.
 */
public final class NativeLibraries {

    private static final String FOLDER = "io/clockagent/agent/native/";
    private static final String FILE_NAME = "libclockagent.so";

    private NativeLibraries() {
    }

    /** The platforms ({@code linux-amd64}, ...) the agent jar carries a library for. */
    public static List<String> carried() {
        List<String> platforms = new ArrayList<>();
        try (JarFile jar = new JarFile(BuildOutputs.agentJar().toFile())) {
            for (JarEntry entry : Collections.list(jar.entries())) {
                String name = entry.getName();
                if (name.startsWith(FOLDER) && name.endsWith("/" + FILE_NAME)) {
                    platforms.add(name.substring(FOLDER.length(), name.length() - FILE_NAME.length() - 1));
                }
            }
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
        return platforms;
    }

    /** The library for a platform the jar carries. */
    public static byte[] bytes(String platform) {
        try (JarFile jar = new JarFile(BuildOutputs.agentJar().toFile());
                InputStream in = jar.getInputStream(jar.getEntry(FOLDER + platform + "/" + FILE_NAME))) {
            return in.readAllBytes();
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
    }

    /** This machine's platform, as the JVMs the tests fork name it. */
    public static String thisMachine() {
        return System.getProperty("os.name").toLowerCase(Locale.ROOT) + "-" + System.getProperty("os.arch");
    }

    /**
     * Returns when the agent jar carries the library for this machine. Else prints a notice to stdout and aborts the
     * calling test through a JUnit assumption, which reports it as skipped.
     */
    public static void requireForThisMachine() {
        require(thisMachine());
    }

    /** Returns when the agent jar carries the library for the platform; else as {@link #requireForThisMachine}. */
    public static void require(String platform) {
        if (!carried().contains(platform)) {
            String notice = "NOTICE: the agent jar carries no native library for " + platform + " (its build"
                    + " found no C compiler for it); this test of the native code is SKIPPED, not passed.";
            System.out.println(notice);
            Assumptions.abort(notice);
        }
    }
}
