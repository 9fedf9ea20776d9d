package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.faults.DefineFromFilesMain;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.GeneratedClocks;
import io.clockagent.it.support.Jdk;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.OnEachJdk;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Class files the rewriter cannot read, each calling {@code System.currentTimeMillis()}, defined through a custom
 * loader, twice: each attempt fails exactly as it does without the agent, and the agent reports each class once.
 */
class MalformedClassFilesTest {

    private static final String PACKAGE = "io.clockagent.it.fixtures.faults.generated";
    /** The class files, and the start of the reason the agent gives for each. */
    private static final Map<String, String> REASONS = new LinkedHashMap<>();
    private static final int FIRST_CONSTANT_TAG_OFFSET = 10;
    /** Tag 2 is not assigned in any class file version. */
    private static final byte UNASSIGNED_TAG = 2;
    private static final int UNKNOWN_MAJOR_VERSION = Jdks.NEWEST_CLASS_FILE_MAJOR_VERSION + 1;

    @TempDir
    static Path workDirectory;
    private static final List<String> ARGUMENTS = new ArrayList<>();

    @BeforeAll
    static void writeClassFiles() throws IOException {
        byte[] truncated = GeneratedClocks.withClassFileVersion(PACKAGE + ".Truncated", Jdks.LOADED_BY_EVERY_JDK);
        write("Truncated", Arrays.copyOf(truncated, truncated.length / 2), "truncated class file");
        byte[] brokenPool = GeneratedClocks.withClassFileVersion(PACKAGE + ".BrokenConstantPool",
                Jdks.LOADED_BY_EVERY_JDK);
        brokenPool[FIRST_CONSTANT_TAG_OFFSET] = UNASSIGNED_TAG;
        write("BrokenConstantPool", brokenPool, "unknown constant pool tag " + UNASSIGNED_TAG);
        write("NewerVersion", GeneratedClocks.withClassFileVersion(PACKAGE + ".NewerVersion", UNKNOWN_MAJOR_VERSION),
                "class file version " + UNKNOWN_MAJOR_VERSION + " is newer than clock-agent reads");
    }

    private static void write(String simpleName, byte[] classFile, String reason) throws IOException {
        Path file = workDirectory.resolve(simpleName + ".class");
        Files.write(file, classFile);
        ARGUMENTS.add(PACKAGE + "." + simpleName + "=" + file);
        REASONS.put(PACKAGE + "." + simpleName, reason);
    }

    @OnEachJdk
    void eachClassFailsAsWithoutTheAgentAndIsReportedOnce(int featureVersion, @TempDir Path runDirectory) {
        Jdk jdk = Jdks.require(featureVersion);

        ForkResult without = new ForkedJvm(jdk, runDirectory.resolve("without"))
                .classPath(BuildOutputs.testClasses())
                .runMain(DefineFromFilesMain.class.getName(), ARGUMENTS.toArray(new String[0]));
        ForkResult with = new ForkedJvm(jdk, runDirectory.resolve("with"))
                .javaagent(BuildOutputs.agentJar(), "include=" + PACKAGE)
                .classPath(BuildOutputs.testClasses())
                .runMain(DefineFromFilesMain.class.getName(), ARGUMENTS.toArray(new String[0]));

        assertEquals(0, without.exitStatus(), without.describe());
        assertEquals(List.of(), without.stderr(), without.describe());
        assertEquals(0, with.exitStatus(), with.describe());
        Map<String, String> outcomes = without.labelled("outcome");
        assertEquals(2 * REASONS.size(), outcomes.size(), without.describe());
        outcomes.forEach((attempt, outcome) -> assertNotEquals("loaded", outcome, "the JVM itself rejects " + attempt));
        assertEquals(outcomes, with.labelled("outcome"), "the same exception types with the agent\n"
                + with.describe());

        assertTrue(AgentStderr.banner(PACKAGE, AgentStderr.NO_EXCLUDES).matcher(with.stderr().get(0)).matches(),
                with.describe());
        List<String> reports = with.stderr().subList(1, with.stderr().size());
        assertEquals(REASONS.size(), reports.size(), "one line per class, not per attempt\n" + with.describe());
        List<Executable> checks = new ArrayList<>();
        REASONS.forEach((className, reason) -> checks.add(() -> {
            String prefix = "clock-agent: left " + className + " unchanged: " + reason;
            assertEquals(1, reports.stream().filter(line -> line.startsWith(prefix)).count(),
                    "a line starting '" + prefix + "' in " + reports.stream().collect(Collectors.joining("\n")));
        }));
        assertAll(checks);
    }
}
