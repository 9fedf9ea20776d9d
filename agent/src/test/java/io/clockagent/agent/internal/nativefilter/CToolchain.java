package io.clockagent.agent.internal.nativefilter;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A C compiler for one Linux architecture, named as the JVM names it ({@code amd64}, {@code aarch64}), and, where that
 * is not this machine's, the user-mode emulator that runs what it builds: the tests' way to build and run the native
 * code for every architecture the agent jar carries, as the build does. {@code amd64-musl} is x86-64 against musl
 * instead of glibc (musl-gcc, Debian's musl-tools), linked statically, as the library also loads under musl. Immutable.
 */
public final class CToolchain {

    private static final Map<String, String> TRIPLETS = Map.of("amd64", "x86_64-linux-gnu", "aarch64",
            "aarch64-linux-gnu");
    private static final Map<String, String> EMULATORS = Map.of("amd64", "qemu-x86_64", "aarch64", "qemu-aarch64");
    private static final long PROBE_TIMEOUT_SECONDS = 30;
    private static final String MUSL = "-musl";

    private final String arch;
    private final String compiler;
    /** Null when the architecture is this machine's. */
    private final String emulator;
    private final boolean musl;

    private CToolchain(String arch, String compiler, String emulator, boolean musl) {
        this.arch = arch;
        this.compiler = compiler;
        this.emulator = emulator;
        this.musl = musl;
    }

    /**
     * The toolchain for {@code platform} (an architecture, or one with {@code -musl}). When this machine lacks its
     * compiler (or, for another architecture, its emulator), prints a notice to stdout and aborts the calling test
     * through a JUnit assumption, which reports it as skipped.
     */
    public static CToolchain require(String platform) {
        if (platform.endsWith(MUSL)) {
            String arch = platform.substring(0, platform.length() - MUSL.length());
            // musl-gcc builds for this machine's architecture alone.
            if (!arch.equals(System.getProperty("os.arch")) || !succeeds("musl-gcc", "-dumpmachine")) {
                skip("no musl-gcc for " + arch + " (Debian: musl-tools, on " + arch + ")", platform);
            }
            return new CToolchain(platform, "musl-gcc", null, true);
        }
        String arch = platform;
        String triplet = TRIPLETS.get(arch);
        String compiler = succeeds(triplet + "-gcc", "--version") ? triplet + "-gcc"
                : triplet.equals(output("gcc", "-dumpmachine")) ? "gcc" : null;
        boolean onThisMachine = arch.equals(System.getProperty("os.arch"));
        String emulator = onThisMachine ? null : EMULATORS.get(arch);
        if (compiler == null || (emulator != null && !succeeds(emulator, "--version"))) {
            skip(compiler == null ? "C compiler for " + triplet + " (Debian: gcc-" + triplet.replace('_', '-') + ")"
                    : emulator + " (Debian: qemu-user)", arch);
        }
        return new CToolchain(arch, compiler, emulator, false);
    }

    private static void skip(String missing, String platform) {
        String notice = "NOTICE: no " + missing + "; the " + platform + " run of this test is SKIPPED, not passed.";
        System.out.println(notice);
        Assumptions.abort(notice);
    }

    /**
     * The command that compiles {@code sources} into {@code program} with {@code flags}; statically linked where it
     * runs under emulation, which then needs no copy of the other architecture's C library, and against musl, which
     * then needs no musl loader.
     */
    public List<String> compile(String program, List<String> flags, String... sources) {
        List<String> command = new ArrayList<>(List.of(compiler));
        command.addAll(flags);
        if (emulator != null || musl) {
            command.add("-static");
        }
        command.add("-o");
        command.add(program);
        command.addAll(List.of(sources));
        return command;
    }

    /**
     * Flags that stop a test program at its first memory error or undefined behaviour: AddressSanitizer and
     * UndefinedBehaviorSanitizer on this machine's architecture; under emulation and against musl, whose programs are
     * linked statically without the sanitizers' runtimes, undefined behaviour traps.
     */
    public List<String> sanitizers() {
        return emulator == null && !musl
                ? List.of("-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=undefined")
                : List.of("-fsanitize=undefined", "-fsanitize-undefined-trap-on-error");
    }

    /** Whether what it builds runs under an emulator, at a fraction of the native speed. */
    public boolean emulated() {
        return emulator != null;
    }

    /** The command that runs {@code program}, through the emulator where needed. */
    public List<String> run(String program, String... arguments) {
        List<String> command = new ArrayList<>();
        if (emulator != null) {
            command.add(emulator);
        }
        command.add(program);
        command.addAll(List.of(arguments));
        return command;
    }

    @Override
    public String toString() {
        return arch + " (" + compiler + (emulator == null ? "" : ", under " + emulator) + ")";
    }

    private static boolean succeeds(String... command) {
        return output(command) != null;
    }

    /** The command's trimmed stdout if it ran and exited 0, else null. */
    private static String output(String... command) {
        try {
            Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return process.waitFor(PROBE_TIMEOUT_SECONDS, TimeUnit.SECONDS) && process.exitValue() == 0 ? out : null;
        } catch (IOException notInstalled) {
            return null;
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
