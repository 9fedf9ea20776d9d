package io.clockagent.it.slowclock;

import io.clockagent.it.support.BuildOutputs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The preload library of {@code src/test/c/slowclock.c}, which makes every clock read of a process a system call, as
 * on a host whose clocksource has no vDSO fast path. Built from source with gcc into {@code target/slowclock/} the
 * first time a test asks for it in this JVM; guarded by the class lock.
 */
final class SlowClockLibrary {

    /** Names a file the library writes its call counts to when the process exits; see {@link SlowClockCounts}. */
    static final String COUNTS_VARIABLE = "SLOWCLOCK_COUNTS";
    private static final long GCC_TIMEOUT_SECONDS = 60;

    private static Path built;

    private SlowClockLibrary() {
    }

    /**
     * The built library. Where it cannot be built (not Linux, or no gcc), prints a notice and aborts the calling test
     * through a JUnit assumption, which reports it as skipped; a compiler error fails it.
     */
    static synchronized Path build() {
        if (built != null) {
            return built;
        }
        if (!System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("linux")) {
            skip("LD_PRELOAD and the system calls it routes to are Linux's; this is " + System.getProperty("os.name"));
        }
        Path library = BuildOutputs.slowClockLibrary();
        List<String> command = List.of("gcc", "-shared", "-fPIC", "-O2", "-Wall", "-Wextra", "-Werror", "-o",
                library.toString(), BuildOutputs.slowClockSource().toString());
        try {
            Files.createDirectories(library.getParent());
            Files.deleteIfExists(library);
            Process gcc;
            try {
                gcc = new ProcessBuilder(command).redirectErrorStream(true).start();
            } catch (IOException noCompiler) {
                skip("gcc could not be started (" + noCompiler.getMessage() + ")");
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
        built = library;
        return built;
    }

    /** The environment that preloads the library into a forked JVM. */
    static Map<String, String> preloaded(Path library) {
        return Map.of("LD_PRELOAD", library.toString());
    }

    /** The same, with the library counting its calls into {@code countsFile}. */
    static Map<String, String> preloadedCountingInto(Path library, Path countsFile) {
        return Map.of("LD_PRELOAD", library.toString(), COUNTS_VARIABLE, countsFile.toString());
    }

    private static void skip(String reason) {
        String notice = "NOTICE: " + reason + "; the slow-clock tests are SKIPPED, not passed.";
        System.out.println(notice);
        Assumptions.abort(notice);
    }
}
