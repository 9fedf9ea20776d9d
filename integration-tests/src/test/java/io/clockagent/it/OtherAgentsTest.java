package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.coexist.CoexistingService;
import io.clockagent.it.fixtures.coexist.agent.LabelAgent;
import io.clockagent.it.fixtures.nativefilter.ClassFilterThenMain;
import io.clockagent.it.support.AgentEntry;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ClassDump;
import io.clockagent.it.support.ClassFiles;
import io.clockagent.it.support.ClockReferences;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.InspectorJar;
import io.clockagent.it.support.JarBuilder;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.NativeLibraries;
import io.clockagent.it.support.OnEachJdk;
import io.clockagent.it.support.OnEachJdkThroughBothEntries;
import io.clockagent.it.support.WallClockWindow;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import net.bytebuddy.ByteBuddy;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * Another agent beside clock-agent, given before it or after it: JaCoCo's agent, and a Byte Buddy agent of the
 * test's own that advises a method of the same class. Both agents do their work, and the call sites are rewritten.
 *
 * <p>The inspector comes last in the runs that use it, so it records the class as the JVM defines it, after both
 * agents; through {@code -javaagent} those runs use the Java rewriter ({@link InspectorJar#JAVA_REWRITER}), as the
 * native class filter would rewrite after the inspector too. The Byte Buddy runs go through both entries.
 */
class OtherAgentsTest {

    private static final String PACKAGE = CoexistingService.class.getPackageName();
    private static final String SERVICE = CoexistingService.class.getName().replace('.', '/');
    /** A liveness bound for the MBean's registration, which takes milliseconds; never a speed target. */
    private static final long MBEAN_PATIENCE_MILLIS = 20_000;

    @TempDir
    static Path workDirectory;
    private static Path serviceJar;
    private static Path labelAgentJar;
    private static Path byteBuddyJar;

    @BeforeAll
    static void writeJars() throws URISyntaxException {
        serviceJar = new JarBuilder()
                .addEntry(SERVICE + ".class", ClassFiles.read(BuildOutputs.testClasses(), SERVICE))
                .writeTo(workDirectory.resolve("service.jar"));
        labelAgentJar = new JarBuilder()
                .manifestAttribute("Premain-Class", LabelAgent.class.getName())
                .manifestAttribute("Can-Retransform-Classes", "true")
                .addPackage(BuildOutputs.testClasses(), LabelAgent.class.getPackageName().replace('.', '/'))
                .writeTo(workDirectory.resolve("label-agent.jar"));
        // The Byte Buddy these tests compile against, which reads Java 25 class files.
        byteBuddyJar = Path.of(ByteBuddy.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    @OnEachJdk
    void jacocoBeforeClockAgentRecordsCoverageAndTheCallSiteIsRewritten(int featureVersion,
            @TempDir Path runDirectory) throws IOException {
        Path execFile = runDirectory.resolve("jacoco.exec");
        ForkedJvm jvm = new ForkedJvm(Jdks.require(featureVersion), runDirectory)
                .javaagent(BuildOutputs.jacocoAgentJar(), jacocoOptions(execFile))
                .javaagent(BuildOutputs.agentJar(), "include=" + PACKAGE + "," + InspectorJar.JAVA_REWRITER);

        assertJacocoCoexists(jvm, runDirectory, execFile);
    }

    @OnEachJdk
    void jacocoAfterClockAgentRecordsCoverageAndTheCallSiteIsRewritten(int featureVersion,
            @TempDir Path runDirectory) throws IOException {
        Path execFile = runDirectory.resolve("jacoco.exec");
        ForkedJvm jvm = new ForkedJvm(Jdks.require(featureVersion), runDirectory)
                .javaagent(BuildOutputs.agentJar(), "include=" + PACKAGE + "," + InspectorJar.JAVA_REWRITER)
                .javaagent(BuildOutputs.jacocoAgentJar(), jacocoOptions(execFile));

        assertJacocoCoexists(jvm, runDirectory, execFile);
    }

    @OnEachJdkThroughBothEntries
    void aByteBuddyAgentBeforeClockAgentAdvisesTheClassAndTheCallSiteIsRewritten(int featureVersion,
            AgentEntry entry, @TempDir Path runDirectory) {
        ForkedJvm jvm = entry.addTo(new ForkedJvm(Jdks.require(featureVersion), runDirectory)
                .javaagent(labelAgentJar, null), clockAgentOptions(entry));

        assertByteBuddyAgentCoexists(jvm, runDirectory, entry);
    }

    @OnEachJdkThroughBothEntries
    void aByteBuddyAgentAfterClockAgentAdvisesTheClassAndTheCallSiteIsRewritten(int featureVersion,
            AgentEntry entry, @TempDir Path runDirectory) {
        ForkedJvm jvm = entry.addTo(new ForkedJvm(Jdks.require(featureVersion), runDirectory),
                clockAgentOptions(entry)).javaagent(labelAgentJar, null);

        assertByteBuddyAgentCoexists(jvm, runDirectory, entry);
    }

    /** Through {@code -javaagent}, the Java rewriter; through {@code -agentpath}, the C one, as always there. */
    private static String clockAgentOptions(AgentEntry entry) {
        return "include=" + PACKAGE + (entry == AgentEntry.JAVAAGENT ? "," + InspectorJar.JAVA_REWRITER : "");
    }

    /**
     * Under the native class filter, on by default, the rewrite comes after every Java agent's transformers whatever
     * the command-line order, as its JVMTI environment is made in {@code premain}, after theirs: the label agent,
     * given after clock-agent, advises the class first, and the class is rewritten on top of that.
     */
    @OnEachJdk
    void underTheNativeFilterAByteBuddyAgentAdvisesTheClassAndTheCallSiteIsRewritten(int featureVersion,
            @TempDir Path runDirectory) {
        NativeLibraries.requireForThisMachine();
        long startMillis = System.currentTimeMillis();

        ForkResult result = new ForkedJvm(Jdks.require(featureVersion), runDirectory)
                .javaagent(BuildOutputs.agentJar(), "include=" + PACKAGE + ",verbose=true")
                .javaagent(labelAgentJar, null)
                .classPath(serviceJar, byteBuddyJar, BuildOutputs.testClasses())
                .runMain(ClassFilterThenMain.class.getName(), Long.toString(MBEAN_PATIENCE_MILLIS),
                        CoexistingService.class.getName());

        WallClockWindow window = new WallClockWindow(startMillis, System.currentTimeMillis());
        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals("class-filter native", result.stdoutLineStartingWith("class-filter "),
                "the C hook served the service\n" + result.describe());
        assertEquals("label-agent transformed " + CoexistingService.class.getName(),
                result.stdoutLineStartingWith("label-agent "), result.describe());
        assertEquals("label advised", result.stdoutLineStartingWith("label "), result.describe());
        window.assertContains("the service", result.readings("reading").get("service"));
        List<String> agentLines = result.stderr().stream().filter(line -> line.startsWith("clock-agent: "))
                .collect(Collectors.toList());
        assertEquals(2, agentLines.size(), "the banner and the one rewritten class\n" + result.describe());
        assertTrue(AgentStderr.banner(PACKAGE, AgentStderr.NO_EXCLUDES).matcher(agentLines.get(0)).matches(),
                result.describe());
        assertEquals(AgentStderr.rewrote(CoexistingService.class.getName(), 1, 0), agentLines.get(1),
                result.describe());
    }

    private static String jacocoOptions(Path execFile) {
        return "destfile=" + execFile + ",includes=" + PACKAGE + ".*";
    }

    private static void assertJacocoCoexists(ForkedJvm jvm, Path runDirectory, Path execFile) throws IOException {
        Run run = runService(jvm, runDirectory, BuildOutputs.testClasses(), AgentEntry.JAVAAGENT);

        assertEquals("label plain", run.result.stdoutLineStartingWith("label "), run.result.describe());
        assertTrue(new String(run.definedService, StandardCharsets.ISO_8859_1).contains("$jacocoData"),
                "JaCoCo instrumented the class");
        assertTrue(new String(Files.readAllBytes(execFile), StandardCharsets.ISO_8859_1).contains(SERVICE),
                "JaCoCo wrote the class's coverage at exit");
    }

    private static void assertByteBuddyAgentCoexists(ForkedJvm jvm, Path runDirectory, AgentEntry entry) {
        Run run = runService(jvm, runDirectory, byteBuddyJar, entry);

        assertEquals("label-agent transformed " + CoexistingService.class.getName(),
                run.result.stdoutLineStartingWith("label-agent "), run.result.describe());
        assertEquals("label advised", run.result.stdoutLineStartingWith("label "), run.result.describe());
    }

    /**
     * Runs the service with the inspector added last, and checks what holds whatever the other agent: the service
     * ran and read the clock, its call site reads the cached clock, and the agent's only line is its banner.
     *
     * @param extraClassPath what the other agent needs on the class path
     */
    private static Run runService(ForkedJvm jvm, Path runDirectory, Path extraClassPath, AgentEntry entry) {
        Path dumpDirectory = runDirectory.resolve("dump");
        long startMillis = System.currentTimeMillis();

        ForkResult result = jvm.javaagent(InspectorJar.path(), dumpDirectory.toString())
                .classPath(serviceJar, extraClassPath)
                .runMain(CoexistingService.class.getName());

        WallClockWindow window = new WallClockWindow(startMillis, System.currentTimeMillis());
        assertEquals(0, result.exitStatus(), result.describe());
        window.assertContains("the service", result.readings("reading").get("service"));
        List<String> agentLines = result.stderr().stream().filter(line -> !line.startsWith("WARNING: "))
                .collect(Collectors.toList());
        assertEquals(1, agentLines.size(), "the banner and nothing else\n" + result.describe());
        assertTrue((entry == AgentEntry.JAVAAGENT ? AgentStderr.javaRewriterBanner(PACKAGE, AgentStderr.NO_EXCLUDES)
                : AgentStderr.banner(PACKAGE, AgentStderr.NO_EXCLUDES)).matcher(agentLines.get(0)).matches(),
                result.describe());
        byte[] definedService = ClassDump.readFrom(dumpDirectory).classFile("app", SERVICE);
        assertEquals(new ClockReferences(0, 0, 1, 0), ClockReferences.in(definedService));
        return new Run(result, definedService);
    }

    private record Run(ForkResult result, byte[] definedService) {
    }
}
