package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.faults.DefineFromFilesMain;
import io.clockagent.it.support.AgentEntry;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.GeneratedClocks;
import io.clockagent.it.support.InspectorJar;
import io.clockagent.it.support.Jdk;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.NativeLibraries;
import io.clockagent.it.support.OnEachJdk;
import io.clockagent.it.support.OnEachJdkThroughBothEntries;
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
 * loader, twice: each attempt fails exactly as it does without the agent, and the agent reports each malformed class
 * once, and of the classes of a newer format with a constant it does not know, the first alone. A class of a newer
 * format whose constants it knows draws no line, and fails as without the agent too: no JVM it is tested on loads one.
 */
class MalformedClassFilesTest {

    private static final String PACKAGE = "io.clockagent.it.fixtures.faults.generated";
    /** The class files the agent reports, and the start of the reason it gives for each. */
    private static final Map<String, String> REASONS = new LinkedHashMap<>();
    private static final int FIRST_CONSTANT_TAG_OFFSET = 10;
    /** Tag 2 is not assigned in any class file version. */
    private static final byte UNASSIGNED_TAG = 2;
    /** The tag the next new kind of constant is likeliest to have. */
    private static final byte NEXT_TAG = 21;
    private static final int NEWER_MAJOR_VERSION = Jdks.NEWEST_CLASS_FILE_MAJOR_VERSION + 1;
    private static final int NEWEST_PATCHED_MAJOR_VERSION = 75;

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
        write("NewerVersion", GeneratedClocks.withClassFileVersion(PACKAGE + ".NewerVersion", NEWER_MAJOR_VERSION),
                null);
        write("NewerConstant", withConstantAtStart(GeneratedClocks.withClassFileVersion(PACKAGE + ".NewerConstant",
                NEWER_MAJOR_VERSION), NEXT_TAG), "class file version " + NEWER_MAJOR_VERSION + " has a constant of"
                + " unknown tag " + NEXT_TAG + " (entry 1)");
        write("AnotherNewerConstant", withConstantAtStart(GeneratedClocks.withClassFileVersion(
                PACKAGE + ".AnotherNewerConstant", NEWEST_PATCHED_MAJOR_VERSION), UNASSIGNED_TAG), null);
    }

    /** @param reason the start of the line the agent writes for it, or null for none */
    private static void write(String simpleName, byte[] classFile, String reason) throws IOException {
        Path file = workDirectory.resolve(simpleName + ".class");
        Files.write(file, classFile);
        ARGUMENTS.add(PACKAGE + "." + simpleName + "=" + file);
        if (reason != null) {
            REASONS.put(PACKAGE + "." + simpleName, reason);
        }
    }

    /** The class file with a constant of that tag before the others; what follows the tag is a guess at its size. */
    private static byte[] withConstantAtStart(byte[] classFile, byte tag) {
        byte[] added = {tag, 0, 1};
        byte[] extended = new byte[classFile.length + added.length];
        System.arraycopy(classFile, 0, extended, 0, FIRST_CONSTANT_TAG_OFFSET);
        System.arraycopy(added, 0, extended, FIRST_CONSTANT_TAG_OFFSET, added.length);
        System.arraycopy(classFile, FIRST_CONSTANT_TAG_OFFSET, extended, FIRST_CONSTANT_TAG_OFFSET + added.length,
                classFile.length - FIRST_CONSTANT_TAG_OFFSET);
        int count = (classFile[8] & 0xff) << 8 | classFile[9] & 0xff;
        extended[8] = (byte) ((count + 1) >>> 8);
        extended[9] = (byte) (count + 1);
        return extended;
    }

    /** The Java rewriter, which reads every class in scope in full, names each class it leaves and why. */
    @OnEachJdk
    void eachClassFailsAsWithoutTheAgentAndTheJavaRewriterReportsItOnce(int featureVersion,
            @TempDir Path runDirectory) {
        Jdk jdk = Jdks.require(featureVersion);
        Map<String, String> outcomes = outcomesWithoutTheAgent(jdk, runDirectory);
        ForkResult with = new ForkedJvm(jdk, runDirectory.resolve("with"))
                .javaagent(BuildOutputs.agentJar(), "include=" + PACKAGE + "," + InspectorJar.JAVA_REWRITER)
                .classPath(BuildOutputs.testClasses())
                .runMain(DefineFromFilesMain.class.getName(), ARGUMENTS.toArray(new String[0]));

        assertEquals(0, with.exitStatus(), with.describe());
        assertEquals(outcomes, with.labelled("outcome"), "the same exception types with the agent\n"
                + with.describe());
        assertTrue(AgentStderr.javaRewriterBanner(PACKAGE, AgentStderr.NO_EXCLUDES).matcher(with.stderr().get(0))
                .matches(), with.describe());
        List<String> reports = with.stderr().subList(1, with.stderr().size());
        assertEquals(REASONS.size(), reports.size(), "one line per malformed class, not per attempt, and one for"
                + " the newer format's classes\n" + with.describe());
        List<Executable> checks = new ArrayList<>();
        REASONS.forEach((className, reason) -> checks.add(() -> {
            String prefix = "clock-agent: left " + className + " unchanged: " + reason;
            assertEquals(1, reports.stream().filter(line -> line.startsWith(prefix)).count(),
                    "a line starting '" + prefix + "' in " + reports.stream().collect(Collectors.joining("\n")));
        }));
        assertAll(checks);
    }

    /**
     * The native start's hook (both entries by default), which searches a class's bytes before it reads them, leaves
     * what it cannot read with certainty as it is and says so once for the whole run, naming the first such class.
     */
    @OnEachJdkThroughBothEntries
    void eachClassFailsAsWithoutTheAgentAndTheNativeHookReportsTheFirstOnce(int featureVersion, AgentEntry entry,
            @TempDir Path runDirectory) {
        NativeLibraries.requireForThisMachine();
        Jdk jdk = Jdks.require(featureVersion);
        Map<String, String> outcomes = outcomesWithoutTheAgent(jdk, runDirectory);
        ForkResult with = entry.addTo(new ForkedJvm(jdk, runDirectory.resolve("with")), "include=" + PACKAGE)
                .classPath(BuildOutputs.testClasses())
                .runMain(DefineFromFilesMain.class.getName(), ARGUMENTS.toArray(new String[0]));

        assertEquals(0, with.exitStatus(), with.describe());
        assertEquals(outcomes, with.labelled("outcome"), "the same exception types with the agent\n"
                + with.describe());
        assertTrue(AgentStderr.banner(PACKAGE, AgentStderr.NO_EXCLUDES).matcher(with.stderr().get(0)).matches(),
                with.describe());
        List<String> reports = with.stderr().subList(1, with.stderr().size());
        assertEquals(1, reports.size(), "one line for the run\n" + with.describe());
        String left = "clock-agent: left " + PACKAGE.replace('.', '/') + "/";
        String rest = " unchanged, and any other class file of a form the rewriter cannot read with certainty";
        assertTrue(reports.get(0).startsWith(left) && reports.get(0).contains(rest), with.describe());
    }

    private static Map<String, String> outcomesWithoutTheAgent(Jdk jdk, Path runDirectory) {
        ForkResult without = new ForkedJvm(jdk, runDirectory.resolve("without"))
                .classPath(BuildOutputs.testClasses())
                .runMain(DefineFromFilesMain.class.getName(), ARGUMENTS.toArray(new String[0]));
        assertEquals(0, without.exitStatus(), without.describe());
        assertEquals(List.of(), without.stderr(), without.describe());
        Map<String, String> outcomes = without.labelled("outcome");
        assertEquals(2 * ARGUMENTS.size(), outcomes.size(), without.describe());
        outcomes.forEach((attempt, outcome) -> assertNotEquals("loaded", outcome, "the JVM itself rejects " + attempt));
        return outcomes;
    }
}
