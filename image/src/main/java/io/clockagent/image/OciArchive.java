package io.clockagent.image;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An OCI image layout in one tar archive, as {@code podman load}, {@code skopeo copy oci-archive:...} and Docker 25+
 * read it: each blob under {@code blobs/sha256/} by its digest, {@code oci-layout}, and {@code index.json} naming one
 * image index (the image of each platform) by the version as its reference. The archive also holds Docker's
 * {@code manifest.json}, which older {@code docker load} reads instead, naming each platform's image apart. The JSON is
 * written compact and in a fixed key order, so that the same images always make the same digests.
 */
final class OciArchive {

    static final String INDEX_TYPE = "application/vnd.oci.image.index.v1+json";
    static final String MANIFEST_TYPE = "application/vnd.oci.image.manifest.v1+json";
    static final String CONFIG_TYPE = "application/vnd.oci.image.config.v1+json";
    static final String LAYER_TYPE = "application/vnd.oci.image.layer.v1.tar";

    /** One platform's image: its layers, bottom first, and the command its config starts. */
    record Image(String architecture, List<byte[]> layers, String entrypoint) {
    }

    private final Map<String, byte[]> blobs = new LinkedHashMap<>();

    /** The archive of `images` under the name and version, every time and date in it `createdSeconds`. */
    byte[] write(String name, String version, String created, long createdSeconds, List<Image> images) {
        List<String> platformEntries = new ArrayList<>();
        List<String> dockerEntries = new ArrayList<>();
        for (Image image : images) {
            List<String> layerDescriptors = new ArrayList<>();
            List<String> diffIds = new ArrayList<>();
            List<String> layerPaths = new ArrayList<>();
            for (byte[] layer : image.layers()) {
                String digest = blob(layer);
                layerDescriptors.add(descriptor(LAYER_TYPE, digest, layer.length, ""));
                diffIds.add(quoted(digest));
                layerPaths.add(quoted(path(digest)));
            }
            byte[] config = utf8("{\"architecture\":" + quoted(image.architecture()) + ",\"os\":\"linux\",\"created\":"
                    + quoted(created) + ",\"config\":{\"Entrypoint\":[" + quoted(image.entrypoint())
                    + "],\"WorkingDir\":\"/\",\"Labels\":{\"org.opencontainers.image.title\":" + quoted(name)
                    + ",\"org.opencontainers.image.version\":" + quoted(version) + "}},\"rootfs\":{\"type\":\"layers\","
                    + "\"diff_ids\":[" + String.join(",", diffIds) + "]}}");
            String configDigest = blob(config);
            byte[] manifest = utf8("{\"schemaVersion\":2,\"mediaType\":" + quoted(MANIFEST_TYPE) + ",\"config\":"
                    + descriptor(CONFIG_TYPE, configDigest, config.length, "") + ",\"layers\":["
                    + String.join(",", layerDescriptors) + "]}");
            platformEntries.add(descriptor(MANIFEST_TYPE, blob(manifest), manifest.length,
                    ",\"platform\":{\"architecture\":" + quoted(image.architecture()) + ",\"os\":\"linux\"}"));
            dockerEntries.add("{\"Config\":" + quoted(path(configDigest)) + ",\"RepoTags\":["
                    + quoted(name + ":" + version + "-" + image.architecture()) + "],\"Layers\":["
                    + String.join(",", layerPaths) + "]}");
        }
        byte[] imageIndex = utf8("{\"schemaVersion\":2,\"mediaType\":" + quoted(INDEX_TYPE) + ",\"manifests\":["
                + String.join(",", platformEntries) + "]}");
        String imageIndexDigest = blob(imageIndex);
        byte[] index = utf8("{\"schemaVersion\":2,\"mediaType\":" + quoted(INDEX_TYPE) + ",\"manifests\":["
                + descriptor(INDEX_TYPE, imageIndexDigest, imageIndex.length, ",\"annotations\":{"
                        + "\"io.containerd.image.name\":" + quoted(name + ":" + version)
                        + ",\"org.opencontainers.image.ref.name\":" + quoted(version) + "}") + "]}");
        TarWriter archive = new TarWriter(createdSeconds).folder("blobs", 0755).folder("blobs/sha256", 0755);
        blobs.forEach((digest, content) -> archive.file(path(digest), 0644, content));
        return archive.file("index.json", 0644, index)
                .file("manifest.json", 0644, utf8("[" + String.join(",", dockerEntries) + "]"))
                .file("oci-layout", 0644, utf8("{\"imageLayoutVersion\":\"1.0.0\"}"))
                .finish();
    }

    /** Keeps the content as a blob, once however often it is given (both platforms share the jar's layer). */
    private String blob(byte[] content) {
        String digest = "sha256:" + HexFormat.of().formatHex(sha256(content));
        blobs.putIfAbsent(digest, content);
        return digest;
    }

    private static String descriptor(String mediaType, String digest, long size, String more) {
        return "{\"mediaType\":" + quoted(mediaType) + ",\"digest\":" + quoted(digest) + ",\"size\":" + size + more
                + "}";
    }

    private static String path(String digest) {
        return "blobs/sha256/" + digest.substring("sha256:".length());
    }

    /** A JSON string of text that holds no quote, backslash or control character, as every text here. */
    private static String quoted(String text) {
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\' || c < ' ') {
                throw new IllegalArgumentException("a character JSON would escape in " + text);
            }
        }
        return "\"" + text + "\"";
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] sha256(byte[] content) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(content);
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException("every JDK has SHA-256", impossible);
        }
    }
}
