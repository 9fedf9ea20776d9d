package io.clockagent.agent.internal.nativefilter;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
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

/**
 * Where the agent jar keeps the native library (the class filter, and the {@code -agentpath} entry): one per
 * platform, in a folder named as the JVM names the platform ({@code os.name} and {@code os.arch},
 * {@code linux-amd64}), so that a JVM finds only a library built for it and never another. Which platforms a jar carries depends on the compilers its build found. Stateless.
 * Public for the command line, which lists them.
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
