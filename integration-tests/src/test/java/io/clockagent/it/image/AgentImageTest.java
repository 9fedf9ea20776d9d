package io.clockagent.it.image;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.stacks.StackRun;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.NativeLibraries;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The agent image and the Kubernetes recipe, with no container daemon and no cluster: the image's archive read as a
 * runtime reads it, its layers unpacked in order into a root filesystem, the installer run from there as the init
 * container runs it (the recipe's arguments, with the unpacked tree as the process's root), and then a real service
 * started with only the recipe's environment, pointed at the folder the installer wrote: the agent caches its clock
 * reads and prints its one line. The recipe's manifests are read into the Kubernetes API's types, and every path and
 * variable in them checked against the image.
 */
class AgentImageTest {

    private static final String IMAGE_FOLDER = "/clock-agent";
    private static final String ENTRYPOINT = IMAGE_FOLDER + "/install";
    private static final String[] FILES = {"clock-agent.jar", "libclockagent.so"};
    private static final long INSTALL_TIMEOUT_SECONDS = 30;
    /** As StackUnderAgentTest: a read below this share of a direct call is served from the cache. */
    private static final double CACHED_SHARE_OF_DIRECT = 0.25;
    private static final int ELF_MACHINE_X86_64 = 62;
    private static final int ELF_MACHINE_AARCH64 = 183;
    private static final int ELF_PROGRAM_INTERPRETER = 3;

    @Test
    @SuppressWarnings("unchecked")
    void theArchiveHoldsAnImageForEachPlatformWithItsLibraryAndAStaticInstaller(@TempDir Path roots)
            throws IOException {
        ImageArchive archive = ImageArchive.read(BuildOutputs.agentImage());
        Map<String, Object> index = archive.imageIndex(BuildOutputs.agentVersion());

        assertTrue(archive.paths().containsAll(List.of("oci-layout", "index.json", "manifest.json")), "" + archive
                .paths());
        List<String> jarLayers = new ArrayList<>();
        for (String[] platform : new String[][] {{"amd64", "linux-amd64", "" + ELF_MACHINE_X86_64},
            {"arm64", "linux-aarch64", "" + ELF_MACHINE_AARCH64}}) {
            Map<String, Object> manifest = archive.manifest(index, platform[0]);
            Map<String, Object> config = archive.config(manifest);
            assertEquals(platform[0], config.get("architecture"));
            assertEquals(List.of(ENTRYPOINT), ((Map<String, Object>) config.get("config")).get("Entrypoint"));
            List<Map<String, Object>> layers = (List<Map<String, Object>>) manifest.get("layers");
            jarLayers.add((String) layers.get(0).get("digest"));
            Path root = Files.createDirectories(roots.resolve(platform[0]));
            assertEquals(List.of("clock-agent/clock-agent.jar", "clock-agent/install", "clock-agent/libclockagent.so"),
                    archive.unpack(manifest, root));
            assertArrayEquals(Files.readAllBytes(BuildOutputs.agentJar()),
                    Files.readAllBytes(root.resolve("clock-agent/clock-agent.jar")));
            assertArrayEquals(NativeLibraries.bytes(platform[1]),
                    Files.readAllBytes(root.resolve("clock-agent/libclockagent.so")), "the platform's own library");
            assertStaticExecutableFor(Integer.parseInt(platform[2]), root.resolve("clock-agent/install"));
        }
        assertEquals(jarLayers.get(0), jarLayers.get(1), "the jar's layer is one blob for both platforms");
        List<Map<String, Object>> docker = archive.dockerManifest();
        assertEquals(List.of(List.of("clock-agent:" + BuildOutputs.agentVersion() + "-amd64"),
                List.of("clock-agent:" + BuildOutputs.agentVersion() + "-arm64")),
                docker.stream().map(image -> image.get("RepoTags")).toList(), "docker load names each platform");
    }

    @Test
    void theRecipeIsKubernetesAndItsPathsAreTheImages() throws IOException {
        KubernetesRecipe recipe = KubernetesRecipe.read(BuildOutputs.deploy());

        assertTrue(recipe.installer().getCommand().isEmpty(), "the init container runs the image's entry point");
        assertNotEquals(IMAGE_FOLDER, recipe.installerFolder(), "the volume must not hide the image's own folder");
        assertTrue(recipe.installer().getResources().getLimits().containsKey("memory"),
                "the init container has a memory limit");
        assertEquals("-agentpath:" + recipe.serviceFolder() + "/" + FILES[1],
                recipe.serviceEnvironment().get("JAVA_TOOL_OPTIONS"));
        assertTrue(recipe.serviceEnvironment().containsKey("CLOCK_AGENT_OPTIONS"),
                "the variable that turns the agent off per pod is in place");
    }

    @Test
    void theBaseImageRecipeCopiesTheImagesFilesAndStartsEveryJvmWithThem() throws IOException {
        List<String> dockerfile = Files.readAllLines(BuildOutputs.deploy().resolve("docker/Dockerfile"));
        List<String> copies = dockerfile.stream().filter(line -> line.startsWith("COPY --from=clock-agent ")).toList();
        List<String> settings = dockerfile.stream().filter(line -> line.startsWith("ENV JAVA_TOOL_OPTIONS=")).toList();

        assertEquals(1, copies.size(), "one COPY from the agent image: " + dockerfile);
        String[] words = copies.get(0).split(" ");
        String destination = words[words.length - 1];
        assertEquals(List.of(IMAGE_FOLDER + "/" + FILES[0], IMAGE_FOLDER + "/" + FILES[1]),
                List.of(words).subList(2, words.length - 1), "the image's two files");
        assertEquals(List.of("ENV JAVA_TOOL_OPTIONS=\"-agentpath:" + destination + FILES[1] + "\""), settings);
    }

    /**
     * The init container's work and the service's start, as the recipe has them, with the image this machine runs:
     * on JDK 17 and 25, as the library loads one way below Java 24 and another from 24 on.
     */
    @ParameterizedTest(name = "on JDK {0}")
    @ValueSource(ints = {Jdks.JDK_17, Jdks.JDK_25})
    void theRecipeInstallsTheAgentThatTheServiceThenCachesWith(int featureVersion, @TempDir Path runDirectory)
            throws Exception {
        KubernetesRecipe recipe = KubernetesRecipe.read(BuildOutputs.deploy());
        ImageArchive archive = ImageArchive.read(BuildOutputs.agentImage());
        String architecture = NativeLibraries.thisMachine().equals("linux-aarch64") ? "arm64" : "amd64";
        Path root = Files.createDirectories(runDirectory.resolve("root"));
        archive.unpack(archive.manifest(archive.imageIndex(BuildOutputs.agentVersion()), architecture), root);
        Path volume = Files.createDirectories(root.resolve(recipe.installerFolder().substring(1)));

        List<String> installed = install(root, recipe.installerFolder(), runDirectory);

        assertEquals(List.of("clock-agent: installed clock-agent.jar and libclockagent.so into "
                + recipe.installerFolder() + "; start the JVM with -agentpath:" + recipe.installerFolder()
                + "/libclockagent.so"), installed);
        try (Stream<Path> files = Files.list(volume)) {
            assertEquals(List.of(FILES), files.map(file -> file.getFileName().toString()).sorted().toList(),
                    "the two files, and no partial one");
        }
        ForkedJvm service = new ForkedJvm(Jdks.require(featureVersion), runDirectory);
        // The volume, which the service container mounts at its own path: the recipe's values, at this test's path.
        recipe.serviceEnvironment().forEach((name, value) -> service.environment(name,
                value.replace(recipe.serviceFolder(), volume.toString())));
        double[] probe;
        ForkResult end;
        try (StackRun run = new StackRun(service.startJar(BuildOutputs.stackJar("netty-service")))) {
            probe = run.probe();
            end = run.finish();
        }
        assertEquals(0, end.exitStatus(), end.describe());
        List<String> agentLines = end.stderr().stream().filter(line -> line.startsWith("clock-agent:")).toList();
        assertEquals(1, agentLines.size(), end.describe());
        assertTrue(AgentStderr.banner("(all non-JDK classes)", "(none)").matcher(agentLines.get(0)).matches(),
                end.describe());
        assertTrue(probe[0] < CACHED_SHARE_OF_DIRECT * probe[1], "the service's reads come from the cache: "
                + probe[0] + " ns a read, " + probe[1] + " ns a direct call\n" + end.describe());
    }

    /**
     * Runs the image's entry point with the recipe's argument, the unpacked image as the process's root as a
     * container runtime makes it: chroot as root, else a user namespace that maps this user to root.
     */
    private static List<String> install(Path root, String folder, Path runDirectory) throws Exception {
        List<String> command = isRoot() ? List.of("chroot", root.toString(), ENTRYPOINT, folder)
                : List.of("unshare", "--user", "--map-root-user", "--root=" + root, ENTRYPOINT, folder);
        Path output = runDirectory.resolve("install.out");
        Process installer = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile())
                .start();
        assertTrue(installer.waitFor(INSTALL_TIMEOUT_SECONDS, TimeUnit.SECONDS), "installer still running");
        List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
        if (!isRoot() && installer.exitValue() != 0 && lines.stream().anyMatch(line -> line.startsWith("unshare:"))) {
            String notice = "NOTICE: neither root for chroot nor user namespaces here (" + lines + "); the install"
                    + " from the image is SKIPPED, not passed";
            System.out.println(notice);
            Assumptions.abort(notice);
        }
        assertEquals(0, installer.exitValue(), String.join("\n", lines));
        return lines;
    }

    private static boolean isRoot() throws IOException {
        return Files.readAllLines(Path.of("/proc/self/status")).stream()
                .anyMatch(line -> line.matches("Uid:\\s+0\\s.*"));
    }

    /** An ELF executable for the machine that names no program interpreter: it needs nothing of the image. */
    private static void assertStaticExecutableFor(int machine, Path file) throws IOException {
        ByteBuffer elf = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(0x464C457F, elf.getInt(0), file + " is ELF");
        assertEquals(2, elf.get(4), file + " is 64-bit");
        assertEquals(machine, elf.getShort(18), file + "'s machine");
        long programHeaders = elf.getLong(32);
        int entrySize = elf.getShort(54);
        int count = elf.getShort(56);
        for (int i = 0; i < count; i++) {
            assertNotEquals(ELF_PROGRAM_INTERPRETER, elf.getInt((int) programHeaders + i * entrySize),
                    file + " names a program interpreter: it is not static");
        }
        assertTrue(Files.isExecutable(file), file + " is executable");
    }
}
