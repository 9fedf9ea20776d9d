package io.clockagent.agent.internal.nativefilter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The native libraries {@code build.sh} put into the agent's classes, from where the jar takes them, and which
 * toolchain built them: the tests that hold them to loading on every Linux read both here.
 */
final class BuiltLibraries {

    /** The platforms a build with every toolchain makes; {@code .ci/run} sets it, and then a host build fails. */
    static final String EXPECTED_VARIABLE = "CLOCK_AGENT_EXPECTED_NATIVE_PLATFORMS";
    private static final Path NATIVE = Path.of("target/classes/io/clockagent/agent/native");
    /** Written by build.sh: "zig VERSION, glibc 2.17", or "host gcc" where it had to fall back. */
    private static final Path TOOLCHAIN = Path.of("target/generated-sources/c/native-toolchain");

    private BuiltLibraries() {
    }

    /**
     * Each library by its platform ({@code linux-amd64}, {@code linux-aarch64}). Where the build made none, prints a
     * notice and aborts the calling test through a JUnit assumption, which reports it as skipped.
     */
    static Map<String, Path> carried() {
        Map<String, Path> libraries = new TreeMap<>();
        if (Files.isDirectory(NATIVE)) {
            try (Stream<Path> platforms = Files.list(NATIVE)) {
                platforms.map(platform -> platform.resolve("libclockagent.so")).filter(Files::isRegularFile)
                        .forEach(library -> libraries.put(library.getParent().getFileName().toString(), library));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        if (libraries.isEmpty()) {
            String notice = "NOTICE: the build made no native library (no toolchain), so there is none to check;"
                    + " this test is SKIPPED, not passed.";
            System.out.println(notice);
            Assumptions.abort(notice);
        }
        return libraries;
    }

    static String toolchain() {
        try {
            return Files.readString(TOOLCHAIN, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Fails with {@code problem}, unless the libraries came from the host's gcc, which build.sh falls back to when
     * zig cannot be had, on a machine that does not claim to have every toolchain ({@code EXPECTED_VARIABLE} unset):
     * there it prints a notice and reports the test as skipped, since such a build cannot do better.
     */
    static void failUnlessAHostBuild(String problem) {
        if (toolchain().startsWith("host") && System.getenv(EXPECTED_VARIABLE) == null) {
            String notice = "NOTICE: the native libraries were built with the host's gcc (no zig, or"
                    + " CLOCK_AGENT_NATIVE_TOOLCHAIN=host), so they may not load on an older glibc nor on musl: "
                    + problem + "; this test is SKIPPED, not passed (it fails where " + EXPECTED_VARIABLE
                    + " is set, as in CI).";
            System.out.println(notice);
            Assumptions.abort(notice);
        }
        Assertions.fail(problem + " (built with " + toolchain() + ")");
    }
}
