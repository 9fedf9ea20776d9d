package io.clockagent.image;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Writes the agent image, for linux/amd64 and linux/arm64, as one OCI archive ({@link OciArchive}): under
 * {@value #FOLDER}, the agent jar, the platform's library from the jar, and the platform's static installer, the
 * image's entry point, which copies the two into the folder it is given. Two layers, so that a registry and a node
 * keep the jar once for both platforms: the jar, then the platform's library and installer. Run by the image module's
 * build ({@code image/src/build/build-image.sh}); never shipped.
 *
 * <p>Usage: {@code java -cp CLASSES io.clockagent.image.AgentImage AGENT_JAR INSTALLER_FOLDER VERSION CREATED OUTPUT},
 * with the installers as {@code install-amd64} and {@code install-arm64} in INSTALLER_FOLDER and CREATED the build's
 * fixed timestamp ({@code project.build.outputTimestamp}).
 */
public final class AgentImage {

    static final String NAME = "clock-agent";
    static final String FOLDER = "clock-agent";
    static final String INSTALLER = "install";
    static final String JAR = "clock-agent.jar";
    static final String LIBRARY = "libclockagent.so";
    /** The image platforms, each with the folder of its library in the jar, as the JVM names its architecture. */
    private static final String[][] PLATFORMS = {{"amd64", "linux-amd64"}, {"arm64", "linux-aarch64"}};
    private static final String LIBRARIES_IN_JAR = "io/clockagent/agent/native/";

    private AgentImage() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 5) {
            throw new IllegalArgumentException("usage: AgentImage AGENT_JAR INSTALLER_FOLDER VERSION CREATED OUTPUT");
        }
        Path jar = Path.of(args[0]);
        Path installers = Path.of(args[1]);
        String version = args[2];
        String created = args[3];
        long createdSeconds = Instant.parse(created).getEpochSecond();
        byte[] jarLayer = new TarWriter(createdSeconds).folder(FOLDER, 0755)
                .file(FOLDER + "/" + JAR, 0644, Files.readAllBytes(jar)).finish();
        List<OciArchive.Image> images = new ArrayList<>();
        try (ZipFile agentJar = new ZipFile(jar.toFile())) {
            for (String[] platform : PLATFORMS) {
                byte[] platformLayer = new TarWriter(createdSeconds).folder(FOLDER, 0755)
                        .file(FOLDER + "/" + INSTALLER, 0755,
                                Files.readAllBytes(installers.resolve(INSTALLER + "-" + platform[0])))
                        .file(FOLDER + "/" + LIBRARY, 0644, entry(agentJar, LIBRARIES_IN_JAR + platform[1] + "/"
                                + LIBRARY))
                        .finish();
                images.add(new OciArchive.Image(platform[0], List.of(jarLayer, platformLayer),
                        "/" + FOLDER + "/" + INSTALLER));
            }
        }
        Path output = Path.of(args[4]);
        Files.write(output, new OciArchive().write(NAME, version, created, createdSeconds, images));
        System.out.println("agent image for linux/amd64 and linux/arm64: " + output);
    }

    private static byte[] entry(ZipFile jar, String name) {
        ZipEntry entry = jar.getEntry(name);
        if (entry == null) {
            throw new IllegalStateException(jar.getName() + " holds no " + name);
        }
        try (InputStream in = jar.getInputStream(entry)) {
            return in.readAllBytes();
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
    }
}
