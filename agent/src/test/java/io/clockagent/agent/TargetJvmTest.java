package io.clockagent.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TargetJvmTest {

    @ParameterizedTest(name = "{0} in {1} is Java {2}")
    @CsvSource(delimiter = '|', value = {
        "\"1.8.0_392\"     | jre/lib/amd64/server | 8",
        "\"9.0.4\"         | lib/server           | 9",
        "\"10.0.2\"        | lib/server           | 10",
        "\"11.0.13\"       | lib/server           | 11",
        "\"17.0.15\"       | lib/server           | 17",
        "\"25\"            | lib/server           | 25",
        "\"25-ea\"         | lib/server           | 25",
    })
    void theReleaseFileAboveLibjvmNamesTheTargetsJava(String javaVersion, String libjvmFolder, int feature,
            @TempDir Path jdk) throws IOException {
        Path libjvm = jdk.resolve(libjvmFolder).resolve("libjvm.so");
        Files.createDirectories(libjvm.getParent());
        Files.writeString(jdk.resolve("release"), "IMPLEMENTOR=\"Eclipse Adoptium\"\nJAVA_VERSION=" + javaVersion
                + "\n");

        assertEquals(Optional.of(feature), TargetJvm.featureRelease(libjvm));
    }

    @ParameterizedTest(name = "JAVA_VERSION [{0}] names no release")
    @CsvSource(delimiter = '|', value = {"''", "\"\"", "\"unknown\"", "\"99999999999\""})
    void anUnreadableVersionNamesNoRelease(String javaVersion, @TempDir Path jdk) throws IOException {
        Path libjvm = jdk.resolve("lib/server/libjvm.so");
        Files.writeString(jdk.resolve("release"), "JAVA_VERSION=" + javaVersion + "\n");

        assertEquals(Optional.empty(), TargetJvm.featureRelease(libjvm));
    }

    @ParameterizedTest(name = "a target on Java {0} is refused: {1}")
    @CsvSource(delimiter = '|', nullValues = "ATTACHABLE", value = {
        "8  | it runs Java 8; the agent needs 11 or later",
        "10 | it runs Java 10; the agent needs 11 or later",
        "11 | ATTACHABLE",
        "25 | ATTACHABLE",
    })
    void aTargetBelowTheFloorIsRefused(int feature, String refusal) {
        assertEquals(Optional.ofNullable(refusal), TargetJvm.olderThanTheFloor(Optional.of(feature)));
    }

    @Test
    void aTargetWithoutAReleaseFileIsLeftToTheAgentInIt(@TempDir Path jdk) {
        Path libjvm = jdk.resolve("lib/server/libjvm.so");

        assertEquals(Optional.empty(), TargetJvm.olderThanTheFloor(TargetJvm.featureRelease(libjvm)));
    }
}
