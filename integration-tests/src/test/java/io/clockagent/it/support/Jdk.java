package io.clockagent.it.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Assumptions;

/**
 * An installed JDK that tests fork JVMs from.
 *
 * @param featureVersion the Java feature release, such as 17 or 25
 * @param home the JDK's installation directory
 */
public record Jdk(int featureVersion, Path home) {

    public Path javaLauncher() {
        return home.resolve("bin").resolve("java");
    }

    /**
     * Whether this JDK's runtime image has the module: a full JDK has every one, a runtime made with {@code jlink}
     * only those it was linked with.
     */
    public boolean hasModule(String moduleName) {
        try {
            String modules = release(home).getProperty("MODULES", "").replace("\"", "");
            return List.of(modules.split(" ")).contains(moduleName);
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
    }

    /** The {@code release} file at the top of a JDK home, which every JDK since 9 ships. */
    static Properties release(Path home) throws IOException {
        Properties release = new Properties();
        try (InputStream in = Files.newInputStream(home.resolve("release"))) {
            release.load(in);
        }
        return release;
    }

    /**
     * Aborts the calling test, reported as skipped with a printed notice, where this JDK's runtime image lacks the
     * module.
     */
    public void requireModule(String moduleName, String neededBy) {
        if (!hasModule(moduleName)) {
            String notice = "NOTICE: the JDK " + featureVersion + " at " + home + " has no module " + moduleName
                    + ", which " + neededBy + " needs; this run is SKIPPED, not passed.";
            System.out.println(notice);
            Assumptions.abort(notice);
        }
    }

    /** The newest class file major version this JDK loads: 61 for Java 17, 69 for Java 25. */
    public int maxClassFileMajorVersion() {
        return classFileMajorVersion(featureVersion);
    }

    /** The class file major version of a Java release: 55 for Java 11. */
    public static int classFileMajorVersion(int featureVersion) {
        return 44 + featureVersion;
    }
}
