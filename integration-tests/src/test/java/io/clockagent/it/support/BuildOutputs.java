package io.clockagent.it.support;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * What the Maven build hands these tests through Surefire's system properties (see this module's pom.xml): the
 * packaged agent and the files the forked JVMs run.
 */
public final class BuildOutputs {

    private BuildOutputs() {
    }

    /** The agent jar as shipped, {@code agent/target/clock-agent.jar}. */
    public static Path agentJar() {
        return existingFile("clockagent.jar");
    }

    /** The project version, which the agent's banner states. */
    public static String agentVersion() {
        return property("clockagent.version");
    }

    /** This module's compiled test classes: the fixtures and the inspector agent. */
    public static Path testClasses() {
        return existingFile("clockagent.testClasses");
    }

    /** Where {@link InspectorJar} writes the inspector agent's jar; it need not exist yet. */
    static Path inspectorJar() {
        return Path.of(property("clockagent.inspectorJar")).toAbsolutePath().normalize();
    }

    /** The Byte Buddy jar the "service with its own Byte Buddy" fixture runs with. */
    public static Path serviceByteBuddyJar() {
        return existingFile("clockagent.serviceByteBuddyJar");
    }

    public static String serviceByteBuddyVersion() {
        return property("clockagent.serviceByteBuddyVersion");
    }

    /** The ASM jar the "service with its own ASM" fixture runs with; not the ASM that Byte Buddy bundles. */
    public static Path serviceAsmJar() {
        return existingFile("clockagent.serviceAsmJar");
    }

    /** slf4j-api and slf4j-simple 1.7, the generation that binds through {@code StaticLoggerBinder}. */
    public static Path[] slf4j1Jars() {
        return existingFiles("clockagent.slf4j1Jars");
    }

    /** slf4j-api and slf4j-simple 2.x, the generation that binds through {@code ServiceLoader}. */
    public static Path[] slf4j2Jars() {
        return existingFiles("clockagent.slf4j2Jars");
    }

    /** The Apache Felix OSGi framework, embedded by the OSGi fixture. */
    public static Path felixFrameworkJar() {
        return existingFile("clockagent.felixJar");
    }

    /** JaCoCo's agent, {@code org.jacoco.agent} with the {@code runtime} classifier. */
    public static Path jacocoAgentJar() {
        return existingFile("clockagent.jacocoAgentJar");
    }

    /** The repository's README, whose documented configuration the tests use as written. */
    public static Path readme() {
        return existingFile("clockagent.readme");
    }

    /**
     * The agent image's OCI archive, where the build could make it (it needs a C compiler for its installer); the
     * calling test is skipped with a notice where it could not, and fails where CLOCK_AGENT_EXPECTED_NATIVE_PLATFORMS
     * says the build must have made every native part (CI).
     */
    public static Path agentImage() {
        Path image = Path.of(property("clockagent.image")).toAbsolutePath().normalize();
        if (!Files.isRegularFile(image)) {
            String notice = "NOTICE: no agent image at " + image + " (the build says why); the image test is SKIPPED,"
                    + " not passed";
            if (System.getenv("CLOCK_AGENT_EXPECTED_NATIVE_PLATFORMS") != null) {
                throw new IllegalStateException(notice + ", and CLOCK_AGENT_EXPECTED_NATIVE_PLATFORMS asks for it");
            }
            System.out.println(notice);
            Assumptions.abort(notice);
        }
        return image;
    }

    /** The deployment recipes' folder, {@code deploy/}. */
    public static Path deploy() {
        return Path.of(property("clockagent.deploy")).toAbsolutePath().normalize();
    }

    /** Prometheus' jmx_exporter agent, which the operability tests load beside clock-agent to scrape its MBean. */
    public static Path jmxExporterJar() {
        return existingFile("clockagent.jmxExporterJar");
    }

    /**
     * A stack service's runnable jar as its module packages it, {@code stacks/MODULE/target/MODULE.jar}: an executable
     * Spring Boot jar, or a jar whose manifest names its libraries in {@code lib/} beside it.
     */
    public static Path stackJar(String module) {
        Path jar = Path.of(property("clockagent.stacks"), module, "target", module + ".jar").toAbsolutePath()
                .normalize();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: package the stacks first (mvn -B verify does)");
        }
        return jar;
    }

    /** The demo service as shipped, {@code demo-app/target/clock-agent-demo.jar}: the demo and slf4j in one jar. */
    public static Path demoJar() {
        return existingFile("clockagent.demoJar");
    }

    /** A C source of this module's test helpers, {@code src/test/c/FILE_NAME}. */
    public static Path testCSource(String fileName) {
        Path source = Path.of(property("clockagent.testCSources"), fileName).toAbsolutePath().normalize();
        if (!Files.isRegularFile(source)) {
            throw new IllegalStateException(source + " is missing");
        }
        return source;
    }

    /** Where the tests build their C helpers from {@link #testCSource}; it need not exist yet. */
    public static Path testCLibraries() {
        return Path.of(property("clockagent.testCLibraries")).toAbsolutePath().normalize();
    }

    static Path existingFile(String key) {
        Path path = Path.of(property(key)).toAbsolutePath().normalize();
        if (!Files.exists(path)) {
            throw new IllegalStateException(key + " points to " + path + ", which does not exist; build with"
                    + " 'mvn -B verify' from the repository root so the agent jar is packaged first");
        }
        return path;
    }

    private static Path[] existingFiles(String key) {
        String[] paths = property(key).split(File.pathSeparator);
        Path[] files = new Path[paths.length];
        for (int i = 0; i < paths.length; i++) {
            files[i] = Path.of(paths[i]).toAbsolutePath().normalize();
            if (!Files.exists(files[i])) {
                throw new IllegalStateException(key + " names " + files[i] + ", which does not exist; build with"
                        + " 'mvn -B verify' from the repository root, which copies it");
            }
        }
        return files;
    }

    private static String property(String key) {
        String value = System.getProperty(key);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("system property " + key + " is not set; run these tests through Maven"
                    + " (mvn -B verify from the repository root), which sets it");
        }
        return value;
    }
}
