package io.clockagent.agent.internal.nativefilter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The x86-64 library loads under musl's dynamic loader (Alpine's) as it is, and its {@code -agentpath} and attach
 * entries stop cleanly where the JVM offers no JVMTI: a musl program ({@code src/test/c/load_library.c}, built with
 * musl-gcc, Debian's musl-tools) dlopen()s it, which fails if it names a library musl's loader does not answer for
 * (such as ld-linux-x86-64.so.2) or a symbol musl lacks, and calls Agent_OnLoad and Agent_OnAttach with a JavaVM whose
 * GetEnv answers JNI_EVERSION: each says so in its one line on stderr, Agent_OnLoad returns JNI_OK (the service runs
 * without it) and Agent_OnAttach JNI_ERR (the attach failed), and neither calls anything else of that JavaVM, which
 * would crash. No musl loader for aarch64 is to be had here, so the aarch64 library
 * is held to {@link NativeLibraryPortabilityTest} and to needing no symbol that x86-64 musl lacks (musl offers the same
 * functions on every architecture).
 */
class MuslLoadTest {

    private static final long TIMEOUT_SECONDS = 60;
    /** Weak references the C runtime's start files leave, which the loader leaves null where nothing defines them. */
    private static final Set<String> WEAK_AND_UNUSED_UNDER_MUSL = Set.of("__gmon_start__",
            "_ITM_deregisterTMCloneTable", "_ITM_registerTMCloneTable", "__cxa_finalize");
    private static final String NO_JVMTI = "clock-agent: off, the service runs without it: this JVM offers no JVMTI";

    @TempDir
    Path workDirectory;

    @Test
    void theX8664LibraryLoadsUnderMuslAndStopsCleanlyWithoutJvmti() throws Exception {
        Map<String, Path> carried = BuiltLibraries.carried();
        Path library = carried.get("linux-amd64");
        if (library == null || !"amd64".equals(System.getProperty("os.arch"))) {
            skip("the jar carries no x86-64 library or this machine is not x86-64 (" + carried.keySet() + ")");
        }
        Path program = workDirectory.resolve("load_library");
        String jdkInclude = Path.of(System.getProperty("java.home"), "include").toString();
        List<String> compile = List.of("musl-gcc", "-std=c11", "-O1", "-Wall", "-Wextra", "-Werror",
                "-I" + jdkInclude, "-I" + jdkInclude + "/linux", "-o", program.toString(), "src/test/c/load_library.c");
        Outcome built;
        try {
            built = run(compile);
        } catch (IOException noMuslGcc) {
            skip("no musl-gcc (Debian: musl-tools)");
            return;
        }
        assertEquals(0, built.exit, compile + "\n" + built.stdout + built.stderr);

        // Through musl's loader by name, as its PT_INTERP would, so that a host without it says so plainly.
        Path loader = Path.of("/lib/ld-musl-x86_64.so.1");
        if (!Files.isExecutable(loader)) {
            skip("no " + loader + " (Debian: musl)");
        }
        Outcome loaded = run(List.of(loader.toString(), program.toString(), library.toAbsolutePath().toString()));

        if (!loaded.stdout.startsWith("loaded\n")) {
            BuiltLibraries.failUnlessAHostBuild("musl's loader does not load linux-amd64/libclockagent.so: "
                    + loaded.stderr.trim());
        }
        assertEquals(0, loaded.exit, loaded.stdout + loaded.stderr);
        // Agent_OnAttach fails, as jcmd would report it: nothing started.
        assertEquals("loaded\nAgent_OnLoad 0\nAgent_OnAttach -1\n", loaded.stdout, loaded.stderr);
        assertEquals(NO_JVMTI + "\n" + NO_JVMTI + "\n", loaded.stderr);
    }

    @Test
    void eachLibraryNeedsOnlySymbolsMuslDefines() throws IOException {
        Path musl = Path.of("/lib/x86_64-linux-musl/libc.so");
        if (!Files.isRegularFile(musl)) {
            skip("no " + musl + " (Debian: musl)");
        }
        Set<String> offered = ElfDependencies.read(Files.readAllBytes(musl)).definedSymbols;
        List<String> missing = new ArrayList<>();
        for (Map.Entry<String, Path> library : BuiltLibraries.carried().entrySet()) {
            ElfDependencies elf = ElfDependencies.read(Files.readAllBytes(library.getValue()));
            elf.undefinedSymbols.forEach((symbol, version) -> {
                if (!offered.contains(symbol) && !WEAK_AND_UNUSED_UNDER_MUSL.contains(symbol)) {
                    missing.add(library.getKey() + ": " + symbol + (version.isEmpty() ? "" : "@" + version));
                }
            });
        }
        if (!missing.isEmpty()) {
            BuiltLibraries.failUnlessAHostBuild("symbols musl does not define: " + missing);
        }
    }

    private static void skip(String why) {
        String notice = "NOTICE: " + why + "; this test is SKIPPED, not passed.";
        System.out.println(notice);
        Assumptions.abort(notice);
    }

    private Outcome run(List<String> command) throws IOException, InterruptedException {
        Path out = workDirectory.resolve("stdout");
        Path err = workDirectory.resolve("stderr");
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertTrue(process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS), "still running: " + command);
        return new Outcome(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    private record Outcome(int exit, String stdout, String stderr) {
    }
}
