package io.clockagent.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A library of {@code src/test/c} that a forked JVM preloads ({@code LD_PRELOAD}) to change what libc does for it,
 * built from source with the host's gcc into {@code target/test-c/} the first time a test asks for it in this JVM;
 * guarded by the class lock.
 */
public final class PreloadLibrary {

    private static final long GCC_TIMEOUT_SECONDS = 60;
    private static final Map<String, Path> BUILT = new HashMap<>();

    private PreloadLibrary() {
    }

    /**
     * {@code libNAME.so}, built from {@code src/test/c/NAME.c}. Where it cannot be built (not Linux, or no gcc),
     * prints a notice and aborts the calling test through a JUnit assumption, which reports it as skipped; a compiler
     * error fails it.
     */
    public static synchronized Path build(String name) {
        Path built = BUILT.get(name);
        if (built != null) {
            return built;
        }
        if (!System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("linux")) {
            skip(name, "LD_PRELOAD is the Linux dynamic loader's; this is " + System.getProperty("os.name"));
        }
        Path library = BuildOutputs.testCLibraries().resolve("lib" + name + ".so");
        List<String> command = new ArrayList<>(List.of("gcc", "-shared", "-fPIC", "-O2", "-Wall", "-Wextra",
                "-Werror", "-o", library.toString(), BuildOutputs.testCSource(name + ".c").toString(), "-ldl"));
        try {
            Files.createDirectories(library.getParent());
            Files.deleteIfExists(library);
            Process gcc;
            try {
                gcc = new ProcessBuilder(command).redirectErrorStream(true).start();
            } catch (IOException noCompiler) {
                skip(name, "gcc could not be started (" + noCompiler.getMessage() + ")");
                return null;
            }
            if (!gcc.waitFor(GCC_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                gcc.destroyForcibly();
                throw new AssertionError("gcc still running after " + GCC_TIMEOUT_SECONDS + " s: " + command);
            }
            String output = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (gcc.exitValue() != 0 || !Files.isRegularFile(library)) {
                throw new AssertionError("gcc failed with exit status " + gcc.exitValue() + ": "
                        + String.join(" ", command) + "\n" + output);
            }
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while building " + library, interrupted);
        }
        BUILT.put(name, library);
        return library;
    }

    private static void skip(String name, String reason) {
        String notice = "NOTICE: " + reason + "; the tests that preload lib" + name + ".so are SKIPPED, not passed.";
        System.out.println(notice);
        Assumptions.abort(notice);
    }
}
