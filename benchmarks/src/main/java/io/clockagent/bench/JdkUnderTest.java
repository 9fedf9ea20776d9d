package io.clockagent.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * A JDK a runner forks, named by its {@code bin/java} and labelled by the version its {@code release} file states,
 * so that a table can name each column without starting the JVM. Immutable.
 */
final class JdkUnderTest {

    private final Path java;
    private final String version;
    private final String implementor;

    private JdkUnderTest(Path java, String version, String implementor) {
        this.java = java;
        this.version = version;
        this.implementor = implementor;
    }

    /**
     * @param java a JDK's {@code bin/java}
     * @throws IllegalArgumentException if it is not one, or its home has no {@code release} file naming the version
     */
    static JdkUnderTest of(Path java) {
        Path home = java.toAbsolutePath().normalize().getParent().getParent();
        Path release = home == null ? null : home.resolve("release");
        if (!Files.isExecutable(java) || release == null || !Files.isRegularFile(release)) {
            throw new IllegalArgumentException("--java " + java + ": not the bin/java of a JDK home with a release"
                    + " file; valid: for example /usr/lib/jvm/temurin-25-jdk-amd64/bin/java");
        }
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(release)) {
            properties.load(in);
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
        String version = unquoted(properties.getProperty("JAVA_VERSION", ""));
        if (version.isEmpty()) {
            throw new IllegalArgumentException("--java " + java + ": " + release + " names no JAVA_VERSION");
        }
        return new JdkUnderTest(java, version, unquoted(properties.getProperty("IMPLEMENTOR", "unknown vendor")));
    }

    private static String unquoted(String value) {
        return value.replace("\"", "").trim();
    }

    Path java() {
        return java;
    }

    /** The Java feature release, {@code 11} for {@code 11.0.13}. */
    int featureVersion() {
        int end = 0;
        while (end < version.length() && Character.isDigit(version.charAt(end))) {
            end++;
        }
        return Integer.parseInt(version.substring(0, end));
    }

    /** The version, {@code 11.0.13}: short enough for a table cell. */
    String label() {
        return version;
    }

    @Override
    public String toString() {
        return version + " (" + implementor + "), " + java;
    }
}
