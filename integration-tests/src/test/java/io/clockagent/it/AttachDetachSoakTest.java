package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.soak.SoakTargetMain;
import io.clockagent.it.fixtures.soak.observer.DefinitionObserver;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.JarBuilder;
import io.clockagent.it.support.Jdk;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.LibraryBesideJar;
import io.clockagent.it.support.LiveJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Many attach and detach cycles into one service whose threads keep defining fresh classes in scope, each in a real
 * class loader of its own: the library loaded through {@code jcmd PID JVMTI.agent_load} (a fresh copy of it each
 * time, as a library detached from a JVM starts there once) alternating with {@code java -jar clock-agent.jar
 * attach}, each ended by {@code detach} while the definitions go on. After each detach no class in scope is defined
 * from bytes that name the agent's clock, as an observer loaded after the agent saw them; while attached, the MBean
 * counts each class once; the count restored covers every class loaded before the detach; and the service's reads
 * and results are what they are without the agent. The definers wait while a copy starts, as a class loaded between
 * the hook going on and the copy's catch-up over the classes loaded already is counted by both.
 */
class AttachDetachSoakTest {

    /** Half through each way in. */
    private static final int CYCLES = 10;
    private static final int DEFINERS = 3;
    /** How long the definers run under each copy before its counts are read. */
    private static final long ATTACHED_MILLIS = 200;
    private static final long DETACH_TIMEOUT_SECONDS = 60;
    /** How long a detach waits for a definition in flight at most (the agent's OpenDefinitions.WAIT_MOST_SECONDS). */
    private static final long HELD_DETACH_SECONDS = 10;
    private static final String SCOPE = SoakTargetMain.class.getPackageName() + ".defined";
    private static final String OPTIONS = "include=" + SCOPE + ",tick=1ms,cache=always";
    private static final String DETACHED = "clock-agent: detached: ticker stopped, original code restored in ";

    @ParameterizedTest(name = "on JDK {0}")
    @ValueSource(ints = {Jdks.JDK_17, Jdks.JDK_25})
    void noClassInScopeNamesTheClockAfterAnyDetachWhileClassesKeepLoading(int featureVersion,
            @TempDir Path runDirectory) throws IOException, InterruptedException {
        Jdk jdk = Jdks.require(featureVersion);
        jdk.requireModule("jdk.jcmd", "jcmd");
        Path library = LibraryBesideJar.write(jdk, runDirectory);
        Path observerJar = observerJar(runDirectory);
        List<String> cycles = new ArrayList<>();
        long startNanos = System.nanoTime();
        try (LiveJvm target = new ForkedJvm(jdk, runDirectory)
                .option("-XX:+EnableDynamicAgentLoading", "-Djdk.attach.allowAttachSelf=true")
                .classPath(BuildOutputs.testClasses())
                .startMain(SoakTargetMain.class.getName(), Integer.toString(DEFINERS), observerJar.toString())) {
            target.awaitLine("ready");
            String pid = Long.toString(target.pid());
            for (int cycle = 0; cycle < CYCLES; cycle++) {
                long before = paused(target);
                boolean throughJcmd = cycle % 2 == 0;
                ForkResult attach = throughJcmd
                        ? new ForkedJvm(jdk, runDirectory).runTool("jcmd", pid, "JVMTI.agent_load",
                                freshCopy(library, runDirectory.resolve("copy-" + cycle)).toString(),
                                '"' + OPTIONS + '"')
                        : new ForkedJvm(jdk, runDirectory).runJar(BuildOutputs.agentJar(), "attach", pid, OPTIONS);
                String way = throughJcmd ? "jcmd" : "attach";
                assertEquals(0, attach.exitStatus(), attach.describe());
                if (throughJcmd) {
                    assertEquals(List.of(pid + ":", "return code: 0"), attach.stdout(), attach.describe());
                }
                String counts = target.ask("counts", "counts ");
                target.ask("observe", "observing");
                target.ask("resume", "resumed");
                Thread.sleep(ATTACHED_MILLIS);
                long attached = paused(target);
                String attachedCounts = target.ask("counts", "counts ");
                target.ask("resume", "resumed");
                long detachNanos = System.nanoTime();
                ForkResult detach = new ForkedJvm(jdk, runDirectory).runJar(BuildOutputs.agentJar(), "detach", pid);
                assertEquals(0, detach.exitStatus(), detach.describe());
                long restored = awaitDetached(target, cycle + 1);
                long detachMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - detachNanos);
                long after = paused(target);
                String check = target.ask("check", "check ");
                String summary = way + ": " + before + " classes before, " + counts + "; " + attached
                        + " classes, " + attachedCounts + "; restored " + restored + " of " + after + " in " + detachMillis
                        + " ms; " + check;
                cycles.add(summary);
                String describe = String.join("\n", cycles) + "\n" + target.describe();

                assertEquals("counts scanned=" + before + " rewritten=" + before, counts, describe);
                assertEquals("counts scanned=" + attached + " rewritten=" + attached, attachedCounts, describe);
                assertTrue(restored >= attached && restored <= after, describe);
                assertEquals("check named=0 unseen=0 wrong=0", check, describe);
            }
            ForkResult end = target.finish();
            String describe = String.join("\n", cycles) + "\n" + end.describe();
            assertEquals(0, end.exitStatus(), describe);
            assertEquals(List.of(), end.stderr().stream().filter(line -> !line.startsWith("clock-agent: "))
                    .collect(Collectors.toList()), describe);
        }
        System.out.println("soak on JDK " + featureVersion + ": " + CYCLES + " cycles in "
                + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos) + " ms\n" + String.join("\n", cycles));
    }

    /**
     * A definition that another agent's transformer holds for good holds the detach 10 s at most, through the library
     * (jcmd) and through the Java start (attach with nativeFilter=false): then one line says so, and the rest is
     * restored.
     */
    @ParameterizedTest(name = "through {0}")
    @ValueSource(strings = {"jcmd", "attach nativeFilter=false"})
    void aDefinitionHeldForGoodHoldsTheDetachTenSecondsAtMost(String way, @TempDir Path runDirectory)
            throws IOException, InterruptedException {
        Jdk jdk = Jdks.require(Jdks.JDK_17);
        jdk.requireModule("jdk.jcmd", "jcmd");
        Path library = LibraryBesideJar.write(jdk, runDirectory);
        try (LiveJvm target = new ForkedJvm(jdk, runDirectory)
                .option("-XX:+EnableDynamicAgentLoading", "-Djdk.attach.allowAttachSelf=true")
                .classPath(BuildOutputs.testClasses())
                .startMain(SoakTargetMain.class.getName(), "1", observerJar(runDirectory).toString())) {
            target.awaitLine("ready");
            String pid = Long.toString(target.pid());
            paused(target);
            ForkResult attach = way.equals("jcmd")
                    ? new ForkedJvm(jdk, runDirectory).runTool("jcmd", pid, "JVMTI.agent_load", library.toString(),
                            '"' + OPTIONS + '"')
                    : new ForkedJvm(jdk, runDirectory).runJar(BuildOutputs.agentJar(), "attach", pid,
                            OPTIONS + ",nativeFilter=false");
            assertEquals(0, attach.exitStatus(), attach.describe());
            target.ask("counts", "counts ");
            target.ask("observe", "observing");
            target.ask("resume", "resumed");
            target.ask("hold", "holding");

            long detachNanos = System.nanoTime();
            ForkResult detach = new ForkedJvm(jdk, runDirectory).runJar(BuildOutputs.agentJar(), "detach", pid);
            awaitDetached(target, 1);
            long detachMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - detachNanos);
            target.ask("release", "released");
            ForkResult end = target.finish();

            String describe = "detach in " + detachMillis + " ms\n" + detach.describe() + "\n" + end.describe();
            assertEquals(0, detach.exitStatus(), describe);
            assertTrue(detachMillis >= TimeUnit.SECONDS.toMillis(HELD_DETACH_SECONDS), describe);
            assertTrue(end.stderr().contains("clock-agent: detach: 1 class definitions still under way after "
                    + HELD_DETACH_SECONDS + " s (another agent's transformer may hold them); the classes they define"
                    + " may keep the rewritten bytes, whose reads take the direct clock"), describe);
            assertEquals(0, end.exitStatus(), describe);
        }
    }

    /** Pauses the definers: how many classes they defined so far. */
    private static long paused(LiveJvm target) {
        return Long.parseLong(target.ask("pause", "paused ").substring("paused ".length()));
    }

    /** The observer agent's jar, which a self-attach of the service loads after the clock agent. */
    private static Path observerJar(Path runDirectory) throws IOException {
        return new JarBuilder()
                .manifestAttribute("Agent-Class", DefinitionObserver.class.getName())
                .manifestAttribute("Can-Retransform-Classes", "true")
                .addPackage(BuildOutputs.testClasses(), DefinitionObserver.class.getPackageName().replace('.', '/'))
                .writeTo(runDirectory.resolve("observer.jar"));
    }

    /** The library and the jar beside it, copied into a folder of their own: a library the JVM has not loaded. */
    private static Path freshCopy(Path library, Path folder) throws IOException {
        Files.createDirectories(folder);
        Files.copy(library.resolveSibling("clock-agent.jar"), folder.resolve("clock-agent.jar"));
        return Files.copy(library, folder.resolve(library.getFileName()));
    }

    /** Waits for the detach's line, the {@code detachesSoFar}th: how many classes it restored. */
    private static long awaitDetached(LiveJvm target, int detachesSoFar) throws InterruptedException {
        long deadlineNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(DETACH_TIMEOUT_SECONDS);
        while (System.nanoTime() - deadlineNanos < 0) {
            List<String> lines = target.stderr().stream().filter(line -> line.startsWith(DETACHED))
                    .collect(Collectors.toList());
            if (lines.size() >= detachesSoFar) {
                String line = lines.get(detachesSoFar - 1);
                return Long.parseLong(line.substring(DETACHED.length(), line.indexOf(' ', DETACHED.length())));
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no detach line " + detachesSoFar + " within " + DETACH_TIMEOUT_SECONDS + " s\n"
                + target.describe());
    }
}
