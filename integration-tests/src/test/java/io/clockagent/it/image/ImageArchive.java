package io.clockagent.it.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.support.Json;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * The agent image's OCI archive as a container runtime reads it, through another tar implementation than the one
 * that wrote it: every blob checked against its digest and size, {@code index.json}'s image index, the image of one
 * platform, its config and its layers, which {@link #unpack} lays down in order as a root filesystem.
 */
final class ImageArchive {

    private static final String LAYER_TYPE = "application/vnd.oci.image.layer.v1.tar";

    private final Map<String, byte[]> files;

    private ImageArchive(Map<String, byte[]> files) {
        this.files = files;
    }

    static ImageArchive read(Path archive) throws IOException {
        Map<String, byte[]> files = new LinkedHashMap<>();
        try (TarArchiveInputStream tar = new TarArchiveInputStream(Files.newInputStream(archive))) {
            for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                if (entry.isFile()) {
                    files.put(entry.getName(), tar.readAllBytes());
                }
            }
        }
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            if (file.getKey().startsWith("blobs/sha256/")) {
                assertEquals(file.getKey().substring("blobs/sha256/".length()), sha256(file.getValue()),
                        "a blob is named by its digest");
            }
        }
        return new ImageArchive(files);
    }

    /** The image index that index.json names by this reference, as {@code skopeo copy oci-archive:A:REF} finds it. */
    @SuppressWarnings("unchecked")
    Map<String, Object> imageIndex(String reference) {
        Map<String, Object> index = json("index.json");
        for (Map<String, Object> descriptor : (List<Map<String, Object>>) index.get("manifests")) {
            Map<String, Object> annotations = (Map<String, Object>) descriptor.get("annotations");
            if (annotations != null && reference.equals(annotations.get("org.opencontainers.image.ref.name"))) {
                return blobJson(descriptor);
            }
        }
        throw new AssertionError("index.json names no image " + reference + ": " + index);
    }

    /** The manifest of the image for this architecture (OCI's name for it, such as amd64). */
    @SuppressWarnings("unchecked")
    Map<String, Object> manifest(Map<String, Object> imageIndex, String architecture) {
        for (Map<String, Object> descriptor : (List<Map<String, Object>>) imageIndex.get("manifests")) {
            Map<String, Object> platform = (Map<String, Object>) descriptor.get("platform");
            if (architecture.equals(platform.get("architecture")) && "linux".equals(platform.get("os"))) {
                return blobJson(descriptor);
            }
        }
        throw new AssertionError("no linux/" + architecture + " image in " + imageIndex);
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> config(Map<String, Object> manifest) {
        return blobJson((Map<String, Object>) manifest.get("config"));
    }

    /** Docker's manifest.json, which older {@code docker load} reads. */
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> dockerManifest() {
        return (List<Map<String, Object>>) Json.parse(new String(files.get("manifest.json"), StandardCharsets.UTF_8));
    }

    /** Every file of the archive, by path: the blobs and the layout's own files. */
    Set<String> paths() {
        return files.keySet();
    }

    /**
     * Lays the manifest's layers down in order into {@code root}, as a runtime does: folders made, files written with
     * their modes, a later layer's file over an earlier one's; the paths written, in order.
     */
    @SuppressWarnings("unchecked")
    List<String> unpack(Map<String, Object> manifest, Path root) throws IOException {
        List<String> written = new ArrayList<>();
        for (Map<String, Object> layer : (List<Map<String, Object>>) manifest.get("layers")) {
            assertEquals(LAYER_TYPE, layer.get("mediaType"), "an uncompressed layer");
            try (TarArchiveInputStream tar = new TarArchiveInputStream(new ByteArrayInputStream(blob(layer)))) {
                for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                    Path path = root.resolve(entry.getName()).normalize();
                    assertTrue(path.startsWith(root), "a layer's path stays inside the root: " + entry.getName());
                    assertEquals(0, entry.getLongUserId(), entry.getName() + " owned by root");
                    if (entry.isDirectory()) {
                        Files.createDirectories(path);
                    } else {
                        assertTrue(entry.isFile(), "only folders and files: " + entry.getName());
                        Files.createDirectories(path.getParent());
                        Files.write(path, tar.readAllBytes());
                        Files.setPosixFilePermissions(path, permissions(entry.getMode()));
                        written.add(entry.getName());
                    }
                }
            }
        }
        return written;
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] bits = PosixFilePermission.values();
        for (int i = 0; i < bits.length; i++) {
            if ((mode & (0400 >> i)) != 0) {
                permissions.add(bits[i]);
            }
        }
        return permissions;
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> blobJson(Map<String, Object> descriptor) {
        return (Map<String, Object>) Json.parse(new String(blob(descriptor), StandardCharsets.UTF_8));
    }

    private byte[] blob(Map<String, Object> descriptor) {
        String digest = (String) descriptor.get("digest");
        byte[] blob = files.get("blobs/sha256/" + digest.substring("sha256:".length()));
        assertTrue(blob != null, "the archive holds " + digest);
        assertEquals(((Number) descriptor.get("size")).longValue(), blob.length, "the size of " + digest);
        return blob;
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> json(String path) {
        return (Map<String, Object>) Json.parse(new String(files.get(path), StandardCharsets.UTF_8));
    }

    static String sha256(byte[] content) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException("every JDK has SHA-256", impossible);
        }
    }
}
