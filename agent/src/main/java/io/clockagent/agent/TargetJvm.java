package io.clockagent.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What can be learnt about a process before attaching, which otherwise only fails after a 10 s timeout. */
final class TargetJvm {

    private static final String LIBJVM = "/libjvm.so";
    /** The feature release in a {@code JAVA_VERSION} such as {@code 1.8.0_392}, {@code 11.0.13} or {@code 25}. */
    private static final Pattern FEATURE_RELEASE = Pattern.compile("\"?(?:1\\.)?(\\d{1,4})(?![0-9]).*");

    private TargetJvm() {
    }

    static Optional<String> whyNotAttachable(long pid) {
        if (ProcessHandle.of(pid).isEmpty()) {
            return Optional.of("no process has that id");
        }
        Path proc = Path.of("/proc", Long.toString(pid));
        if (!Files.isDirectory(proc)) {
            return Optional.empty();
        }
        try {
            String maps = Files.readString(proc.resolve("maps"), StandardCharsets.ISO_8859_1);
            if (!maps.contains(LIBJVM)) {
                return Optional.of("it is not a JVM");
            }
            String commandLine = Files.readString(proc.resolve("cmdline"), StandardCharsets.ISO_8859_1);
            if (commandLine.contains("-XX:+DisableAttachMechanism")) {
                return Optional.of("attach is disabled in it (-XX:+DisableAttachMechanism)");
            }
            return olderThanTheFloor(featureRelease(libjvm(maps)));
        } catch (IOException unreadable) {
            String owner = ProcessHandle.of(pid).flatMap(p -> p.info().user()).orElse("another user");
            return Optional.of("it belongs to " + owner + "; run this command as that user");
        }
    }

    static Optional<String> olderThanTheFloor(Optional<Integer> featureRelease) {
        return featureRelease.filter(feature -> feature < Internals.OLDEST_SUPPORTED_FEATURE)
                .map(feature -> "it runs Java " + feature + "; the agent needs "
                        + Internals.OLDEST_SUPPORTED_FEATURE + " or later");
    }

    /**
     * The Java feature release of the JDK or JRE that holds this {@code libjvm.so}, from the {@code release} file at
     * its top ({@code lib/server/libjvm.so} from Java 9, {@code jre/lib/ARCH/server/libjvm.so} in Java 8); empty
     * when there is none, and the agent in the JVM then judges by itself.
     */
    static Optional<Integer> featureRelease(Path libjvm) {
        for (Path directory = libjvm.getParent(); directory != null; directory = directory.getParent()) {
            Path release = directory.resolve("release");
            if (Files.isRegularFile(release)) {
                Properties properties = new Properties();
                try (var in = Files.newInputStream(release)) {
                    properties.load(in);
                } catch (IOException unreadable) {
                    return Optional.empty();
                }
                Matcher version = FEATURE_RELEASE.matcher(properties.getProperty("JAVA_VERSION", ""));
                return version.matches() ? Optional.of(Integer.parseInt(version.group(1))) : Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** The path of the first {@code libjvm.so} in {@code /proc/PID/maps}, whose lines end with the mapped file. */
    private static Path libjvm(String maps) {
        for (String line : maps.split("\n")) {
            if (line.endsWith(LIBJVM)) {
                return Path.of(line.substring(line.indexOf('/')));
            }
        }
        return Path.of(LIBJVM);
    }
}
