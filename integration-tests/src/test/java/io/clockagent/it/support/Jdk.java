package io.clockagent.it.support;

import java.nio.file.Path;

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

    /** The newest class file major version this JDK loads: 61 for Java 17, 69 for Java 25. */
    public int maxClassFileMajorVersion() {
        return 44 + featureVersion;
    }
}
