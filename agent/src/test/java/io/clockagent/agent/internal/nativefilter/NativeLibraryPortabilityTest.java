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
 * Each native library the jar carries loads on every Linux a JVM runs on: it needs no glibc symbol version newer than
 * glibc 2.17's (CentOS 7, the oldest glibc a supported JDK runs on), none of glibc's fortified {@code __*_chk}
 * functions (which musl lacks), and names no library but those musl's loader answers for itself (libc.so.6,
 * libdl.so.2, libpthread.so.0, librt.so.1): no {@code ld-linux-*}. Read from the ELF file itself, with no tool.
 */
class NativeLibraryPortabilityTest {

    private static final int[] NEWEST_GLIBC = {2, 17};
    private static final Set<String> LIBRARIES_MUSL_ANSWERS = Set.of("libc.so.6", "libdl.so.2", "libpthread.so.0",
            "librt.so.1");
    private static final long COMPILE_TIMEOUT_SECONDS = 60;

    @TempDir
    Path workDirectory;

    @Test
    void eachLibraryNeedsNothingNewerThanGlibc217NorAnythingMuslLacks() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, Path> library : BuiltLibraries.carried().entrySet()) {
            ElfDependencies elf = ElfDependencies.read(Files.readAllBytes(library.getValue()));
            System.out.println(library.getKey() + ": needs " + elf.needed + ", versions " + elf.versions.keySet());
            for (String problem : problems(elf)) {
                problems.add(library.getKey() + ": " + problem);
            }
        }
        if (!problems.isEmpty()) {
            BuiltLibraries.failUnlessAHostBuild(String.join("; ", problems));
        }
    }

    /**
     * The check itself finds what a plain gcc build on this host brings in: a fortified function, and on x86-64 the
     * loader that __tls_get_addr lives in, and on a glibc newer than 2.33 pthread_create's version of 2.34.
     */
    @Test
    void theCheckFindsWhatAPlainHostBuildNeeds() throws Exception {
        Path source = workDirectory.resolve("probe.c");
        Files.writeString(source, String.join("\n",
                "#include <pthread.h>",
                "#include <stdio.h>",
                "#include <string.h>",
                "__thread int depth;",
                "static void *run(void *argument) { return argument; }",
                "int probe(char *out, const char *in) {",
                "    pthread_t thread;",
                "    char buffer[8];",
                "    pthread_create(&thread, NULL, run, NULL);",
                "    strcpy(buffer, in);",
                "    depth++;",
                "    return snprintf(out, 4, \"%s\", buffer);",
                "}", ""));
        Path library = workDirectory.resolve("probe.so");
        List<String> command = List.of("gcc", "-O2", "-D_FORTIFY_SOURCE=2", "-shared", "-fPIC", "-o",
                library.toString(), source.toString());
        Process compiler;
        try {
            compiler = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException noGcc) {
            String notice = "NOTICE: no gcc to build a library to check the check with; this test is SKIPPED, not"
                    + " passed.";
            System.out.println(notice);
            Assumptions.abort(notice);
            return;
        }
        String output = new String(compiler.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(compiler.waitFor(COMPILE_TIMEOUT_SECONDS, TimeUnit.SECONDS), "still running: " + command);
        assertEquals(0, compiler.exitValue(), command + "\n" + output);

        ElfDependencies elf = ElfDependencies.read(Files.readAllBytes(library));
        List<String> problems = problems(elf);

        assertTrue(problems.contains("the fortified __strcpy_chk"), problems.toString());
        if ("amd64".equals(System.getProperty("os.arch"))) {
            assertTrue(problems.contains("names ld-linux-x86-64.so.2"), problems.toString());
        }
        String pthreadCreate = elf.undefinedSymbols.get("pthread_create");
        assertTrue(pthreadCreate.startsWith("GLIBC_2."), pthreadCreate);
        assertEquals(newerThanAllowed(pthreadCreate),
                problems.contains("needs " + pthreadCreate + " (pthread_create)"), problems.toString());
    }

    @Test
    void versionsCompareByNumberNotByText() {
        assertTrue(newerThanAllowed("GLIBC_2.34"));
        assertTrue(newerThanAllowed("GLIBC_2.18"));
        assertTrue(newerThanAllowed("GLIBC_3.0"));
        assertTrue(newerThanAllowed("GLIBC_PRIVATE"));
        assertTrue(!newerThanAllowed("GLIBC_2.17"));
        assertTrue(!newerThanAllowed("GLIBC_2.3.4"));
        assertTrue(!newerThanAllowed("GLIBC_2.2.5"));
    }

    static List<String> problems(ElfDependencies elf) {
        List<String> problems = new ArrayList<>();
        for (String needed : elf.needed) {
            if (!LIBRARIES_MUSL_ANSWERS.contains(needed)) {
                problems.add("names " + needed);
            }
        }
        for (String version : elf.versions.keySet()) {
            if (newerThanAllowed(version)) {
                List<String> users = new ArrayList<>();
                elf.undefinedSymbols.forEach((symbol, needs) -> {
                    if (needs.equals(version)) {
                        users.add(symbol);
                    }
                });
                problems.add("needs " + version + " (" + String.join(", ", users) + ")");
            }
        }
        for (String symbol : elf.undefinedSymbols.keySet()) {
            if (symbol.startsWith("__") && symbol.endsWith("_chk")) {
                problems.add("the fortified " + symbol);
            }
        }
        return problems;
    }

    /** Whether a version is other than GLIBC_x.y[.z] at most 2.17. */
    static boolean newerThanAllowed(String version) {
        if (!version.matches("GLIBC_\\d+(\\.\\d+)*")) {
            return true;
        }
        String[] parts = version.substring("GLIBC_".length()).split("\\.");
        for (int i = 0; i < NEWEST_GLIBC.length; i++) {
            int part = i < parts.length ? Integer.parseInt(parts[i]) : 0;
            if (part != NEWEST_GLIBC[i]) {
                return part > NEWEST_GLIBC[i];
            }
        }
        return parts.length > NEWEST_GLIBC.length && Integer.parseInt(parts[NEWEST_GLIBC.length]) > 0;
    }
}
