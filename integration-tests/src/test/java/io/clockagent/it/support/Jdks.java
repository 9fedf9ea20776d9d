package io.clockagent.it.support;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Assumptions;

/**
 * Finds installed JDKs by feature version, so that each forked-JVM test runs on every JDK it names that this machine
 * has, and is reported as skipped, never as passed, on the ones it lacks.
 */
public final class Jdks {

    /** The JDKs every forked-JVM test runs on: the oldest the agent supports and the newest it knows. */
    public static final int OLDEST_TESTED = 17;
    public static final int NEWEST_TESTED = 25;
    public static final List<Integer> TESTED = List.of(OLDEST_TESTED, NEWEST_TESTED);

    /**
     * Extra JDK homes, separated by the platform's path separator, for machines that keep JDKs elsewhere; for
     * example {@code -Dclockagent.jdks=/opt/jdk-25}.
     */
    public static final String EXTRA_HOMES_PROPERTY = "clockagent.jdks";

    /** Where Debian and Ubuntu packages, and the Temurin packages, install JDKs. */
    private static final Path SYSTEM_JDK_DIRECTORY = Path.of("/usr/lib/jvm");

    private Jdks() {
    }

    /**
     * The installed JDK of this feature version. When there is none, prints a notice to stdout and aborts the
     * calling test through a JUnit assumption, which reports it as skipped.
     */
    public static Jdk require(int featureVersion) {
        Optional<Jdk> found = find(featureVersion);
        if (found.isEmpty()) {
            String notice = "NOTICE: no JDK " + featureVersion + " found (looked at java.home, -D"
                    + EXTRA_HOMES_PROPERTY + " and " + SYSTEM_JDK_DIRECTORY + "/*); the JDK " + featureVersion
                    + " run of this test is SKIPPED, not passed.";
            System.out.println(notice);
            Assumptions.abort(notice);
        }
        return found.get();
    }

    private static Optional<Jdk> find(int featureVersion) {
        for (Path home : candidateHomes()) {
            Optional<Integer> feature = featureVersionOf(home);
            if (feature.isPresent() && feature.get() == featureVersion) {
                return Optional.of(new Jdk(featureVersion, home));
            }
        }
        return Optional.empty();
    }

    private static List<Path> candidateHomes() {
        List<Path> homes = new ArrayList<>();
        homes.add(Path.of(System.getProperty("java.home")));
        String extra = System.getProperty(EXTRA_HOMES_PROPERTY, "");
        for (String home : extra.split(File.pathSeparator)) {
            if (!home.isBlank()) {
                homes.add(Path.of(home.trim()));
            }
        }
        if (Files.isDirectory(SYSTEM_JDK_DIRECTORY)) {
            try (DirectoryStream<Path> installed = Files.newDirectoryStream(SYSTEM_JDK_DIRECTORY)) {
                installed.forEach(homes::add);
            } catch (IOException unreadable) {
                throw new UncheckedIOException(unreadable);
            }
        }
        return homes;
    }

    /** Reads {@code JAVA_VERSION} from the JDK's {@code release} file, which every JDK since 9 ships. */
    private static Optional<Integer> featureVersionOf(Path home) {
        Path release = home.resolve("release");
        if (!Files.isRegularFile(release) || !Files.isExecutable(home.resolve("bin").resolve("java"))) {
            return Optional.empty();
        }
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(release)) {
            properties.load(in);
        } catch (IOException unreadable) {
            return Optional.empty();
        }
        String version = properties.getProperty("JAVA_VERSION", "").replace("\"", "");
        int end = 0;
        while (end < version.length() && Character.isDigit(version.charAt(end))) {
            end++;
        }
        return end == 0 ? Optional.empty() : Optional.of(Integer.parseInt(version.substring(0, end)));
    }
}
