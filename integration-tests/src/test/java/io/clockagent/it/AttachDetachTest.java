package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.attach.AttachTargetMain;
import io.clockagent.it.fixtures.attach.EarlyClock;
import io.clockagent.it.fixtures.attach.LateClock;
import io.clockagent.it.support.AgentEntry;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.DistinctMillis;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdk;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.LibraryBesideJar;
import io.clockagent.it.support.LiveJvm;
import io.clockagent.it.support.OnEachJdk;
import io.clockagent.it.support.OnEachJdkThroughBothEntries;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code java -jar clock-agent.jar attach|detach PID} against a running service, one scenario per JDK: attach, attach
 * again, detach, attach again, probing after each step which clock the service's call sites read. And the library
 * loaded by {@code jcmd PID JVMTI.agent_load}, from beside the jar, in a scenario of its own per JDK: load, load again,
 * detach through the jar, load again, attach through the jar.
 *
 * <p>The agent is attached with {@code tick=1s}, so that {@link DistinctMillis} tells a rewritten site from a direct
 * one by how often its value changes; the second attach asks for {@code tick=1ms}, which would show if it replaced
 * the first agent. Both cache always: the probes read too little for {@code cache=auto} to cache.
 */
class AttachDetachTest {

    private static final String PACKAGE = AttachTargetMain.class.getPackageName();
    private static final String OPTIONS = "include=" + PACKAGE + ",tick=1s,verbose=true,cache=always";
    private static final String SECOND_OPTIONS = "include=" + PACKAGE + ",tick=1ms,verbose=true,cache=always";
    /** AttachTargetMain, EarlyClock and LateClock: every class of the package loaded by then. */
    private static final int CLASSES_IN_PACKAGE = 3;
    private static final String JDK_WARNING = "WARNING: A Java agent has been loaded dynamically";
    /** JEP 451: from this release on, a JVM warns when an agent is loaded into it while it runs. */
    private static final int FIRST_JDK_THAT_WARNS = 21;
    /** Attach, attach again, detach, attach again: each command loads the agent jar into the target. */
    private static final int AGENT_LOADS = 4;

    /** What the library's Agent_OnAttach returns where it refuses to start: JNI_ERR, which jcmd reports. */
    private static final int JNI_ERR = -1;
    private static final String BAD_TICK = "include=" + PACKAGE + ",tick=5";
    /** Holds the jcmd launcher, which a runtime made with jlink may lack. */
    private static final String JCMD_MODULE = "jdk.jcmd";

    @TempDir
    static Path workDirectory;
    private static final Map<Integer, Scenario> SCENARIOS = new HashMap<>();
    private static final Map<Integer, JcmdScenario> JCMD_SCENARIOS = new HashMap<>();

    @OnEachJdk
    void attachRewritesTheClassesAlreadyLoadedAndStartsOneTicker(int featureVersion) {
        Scenario scenario = scenarioOn(featureVersion);

        scenario.before.early.assertDirect("before the attach, EarlyClock");
        assertEquals(0, scenario.before.tickers, "no ticker before the attach");
        assertSent("attach", scenario.pid, scenario.attach.command);
        assertTrue(banner(PACKAGE).matcher(scenario.attach.agentLines.get(0)).matches(), scenario.describe());
        assertTrue(scenario.attach.agentLines.contains(rewrote(EarlyClock.class)), scenario.describe());
        scenario.attach.early.assertCached("after the attach, EarlyClock");
        assertEquals(1, scenario.attach.tickers, scenario.describe());
    }

    @OnEachJdk
    void classesFirstLoadedAfterTheAttachAreRewrittenAsTheyLoad(int featureVersion) {
        Scenario scenario = scenarioOn(featureVersion);

        assertEquals(List.of(rewrote(EarlyClock.class), rewrote(LateClock.class)),
                scenario.attach.agentLines.subList(1, scenario.attach.agentLines.size()),
                "one line per rewritten class, LateClock's when it loaded\n" + scenario.describe());
        scenario.attach.late.assertCached("LateClock, loaded after the attach");
    }

    @OnEachJdk
    void aSecondAttachSaysSoAndLeavesTheFirstAgentInCharge(int featureVersion) {
        Scenario scenario = scenarioOn(featureVersion);

        assertSent("attach", scenario.pid, scenario.secondAttach.command);
        assertFirstCopyKept(scenario.secondAttach, scenario.describe());
    }

    @OnEachJdk
    void detachRestoresTheOriginalCodeAndStopsTheTicker(int featureVersion) {
        Scenario scenario = scenarioOn(featureVersion);

        assertRestoredAndStopped(scenario.pid, scenario.detach, scenario.describe());
    }

    @OnEachJdk
    void attachingAgainAfterADetachWorks(int featureVersion) {
        Scenario scenario = scenarioOn(featureVersion);

        assertSent("attach", scenario.pid, scenario.reattach.command);
        List<String> lines = scenario.reattach.agentLines;
        assertTrue(banner(PACKAGE).matcher(lines.get(0)).matches(), scenario.describe());
        assertEquals(Set.of(rewrote(EarlyClock.class), rewrote(LateClock.class)),
                Set.copyOf(lines.subList(1, lines.size())), scenario.describe());
        assertEquals(2, lines.size() - 1, scenario.describe());
        scenario.reattach.early.assertCached("after attaching again, EarlyClock");
        scenario.reattach.late.assertCached("after attaching again, LateClock");
        assertEquals(1, scenario.reattach.tickers, scenario.describe());
        assertEquals(0, scenario.end.exitStatus(), scenario.describe());
    }

    @OnEachJdk
    void withoutEnableDynamicAgentLoadingJdk21AndLaterWarnOnEveryLoad(int featureVersion) {
        Scenario scenario = scenarioOn(featureVersion);

        long warnings = scenario.end.stderr().stream().filter(line -> line.startsWith(JDK_WARNING)).count();
        assertEquals(featureVersion >= FIRST_JDK_THAT_WARNS ? AGENT_LOADS : 0, warnings, scenario.describe());
    }

    @OnEachJdk
    void withEnableDynamicAgentLoadingTheJvmPrintsNoWarning(int featureVersion, @TempDir Path runDirectory) {
        Jdk jdk = Jdks.require(featureVersion);
        try (LiveJvm target = new ForkedJvm(jdk, runDirectory)
                .option("-XX:+EnableDynamicAgentLoading")
                .classPath(BuildOutputs.testClasses())
                .startMain(AttachTargetMain.class.getName())) {
            target.awaitLine("ready");
            assertSent("attach", target.pid(), attachCli(jdk, runDirectory, "attach", target.pid(), OPTIONS));
            ForkResult end = target.finish();

            assertEquals(0, end.exitStatus(), end.describe());
            assertTrue(banner(PACKAGE).matcher(end.stderr().get(0)).matches(), end.describe());
            assertEquals(List.of(rewrote(EarlyClock.class)), end.stderr().subList(1, end.stderr().size()),
                    "the banner and the rewritten class, no warning\n" + end.describe());
        }
    }

    /**
     * A copy started with the service, whose packages have loaded nothing yet, has not even defined its clock; a
     * detach still reaches it, and frees the JVM for an attach with other options.
     */
    @OnEachJdkThroughBothEntries
    void aCopyStartedWithTheServiceDetachesBeforeItHasRewrittenAnything(int featureVersion, AgentEntry entry,
            @TempDir Path runDirectory) {
        Jdk jdk = Jdks.require(featureVersion);
        try (LiveJvm target = entry.addTo(new ForkedJvm(jdk, runDirectory), "include=com.acme")
                .classPath(BuildOutputs.testClasses())
                .startMain(AttachTargetMain.class.getName())) {
            target.awaitLine("ready");
            long pid = target.pid();
            StderrCursor stderr = new StderrCursor(target);
            List<String> startup = stderr.newAgentLines();
            Stage detach = stage(target, stderr, attachCli(jdk, runDirectory, "detach", pid, null), false);
            Stage attach = stage(target, stderr, attachCli(jdk, runDirectory, "attach", pid, OPTIONS), true);
            ForkResult end = target.finish();
            String describe = "startup: " + startup + "\ndetach: " + detach + "\nattach: " + attach + "\ntarget: "
                    + end.describe();

            assertEquals(1, startup.size(), describe);
            assertSent("detach", pid, detach.command());
            assertEquals(List.of("clock-agent: detached: ticker stopped, original code restored in 0 classes"),
                    detach.agentLines(), describe);
            assertSent("attach", pid, attach.command());
            assertTrue(banner(PACKAGE).matcher(attach.agentLines().get(0)).matches(), describe);
            attach.early().assertCached("attached after the detach, EarlyClock");
            assertEquals(1, attach.tickers(), describe);
            assertEquals(0, end.exitStatus(), describe);
        }
    }

    /**
     * A copy started through {@code -agentpath}, which rewrote the service's classes in C from the first one, detaches
     * as the jar's copy does: the original code back, the ticker gone; and the JVM is free for an attach.
     */
    @OnEachJdk
    void aCopyStartedThroughAgentPathDetachesAndRestoresTheOriginalCode(int featureVersion,
            @TempDir Path runDirectory) {
        Jdk jdk = Jdks.require(featureVersion);
        try (LiveJvm target = AgentEntry.AGENTPATH.addTo(new ForkedJvm(jdk, runDirectory), OPTIONS)
                .classPath(BuildOutputs.testClasses())
                .startMain(AttachTargetMain.class.getName())) {
            target.awaitLine("ready");
            long pid = target.pid();
            StderrCursor stderr = new StderrCursor(target);
            target.ask("first-tick", "ticking");
            Clocks clocks = probeBoth(target);
            Stage started = new Stage(null, stderr.newAgentLines(), clocks.early(), clocks.late(), tickers(target));
            Stage detach = stage(target, stderr, attachCli(jdk, runDirectory, "detach", pid, null), false);
            Stage attach = stage(target, stderr, attachCli(jdk, runDirectory, "attach", pid, OPTIONS), true);
            ForkResult end = target.finish();
            String describe = "started: " + started + "\ndetach: " + detach + "\nattach: " + attach + "\ntarget: "
                    + end.describe();

            started.early().assertCached("through -agentpath, EarlyClock");
            started.late().assertCached("through -agentpath, LateClock");
            assertEquals(1, started.tickers(), describe);
            assertRestoredAndStopped(pid, detach, describe);
            assertSent("attach", pid, attach.command());
            assertTrue(banner(PACKAGE).matcher(attach.agentLines().get(0)).matches(), describe);
            attach.early().assertCached("attached after the detach, EarlyClock");
            assertEquals(1, attach.tickers(), describe);
            assertEquals(0, end.exitStatus(), describe);
        }
    }

    @OnEachJdk
    void theLibraryLoadedThroughJcmdRewritesTheClassesLoadedBeforeAndAfterAndStartsOneTicker(int featureVersion) {
        JcmdScenario scenario = jcmdScenarioOn(featureVersion);

        scenario.before.early.assertDirect("before the load, EarlyClock");
        assertEquals(0, scenario.before.tickers, "no ticker before the load");
        assertLoaded(scenario.pid, 0, scenario.load.command);
        List<String> lines = scenario.load.agentLines;
        assertTrue(banner(PACKAGE).matcher(lines.get(0)).matches(), scenario.describe());
        assertEquals(List.of(rewrote(EarlyClock.class), rewrote(LateClock.class)), lines.subList(1, lines.size()),
                "EarlyClock retransformed at the load, LateClock rewritten as it loaded\n" + scenario.describe());
        scenario.load.early.assertCached("after the load, EarlyClock");
        scenario.load.late.assertCached("LateClock, loaded after the load");
        assertEquals(1, scenario.load.tickers, scenario.describe());
    }

    @OnEachJdk
    void loadingTheLibraryAgainSaysSoAndLeavesTheFirstCopyInCharge(int featureVersion) {
        JcmdScenario scenario = jcmdScenarioOn(featureVersion);

        assertLoaded(scenario.pid, 0, scenario.secondLoad.command);
        assertFirstCopyKept(scenario.secondLoad, scenario.describe());
    }

    @OnEachJdk
    void detachRestoresWhatTheLoadedLibraryRewroteAndStopsItsTicker(int featureVersion) {
        JcmdScenario scenario = jcmdScenarioOn(featureVersion);

        assertRestoredAndStopped(scenario.pid, scenario.detach, scenario.describe());
    }

    /**
     * With both entries given, the -agentpath copy stands down for the -javaagent one; once that one detaches, no copy
     * is active, and the library loaded again through jcmd starts: it is not the copy that detached.
     */
    @OnEachJdk
    void theCopyThatStoodDownStartsThroughJcmdOnceTheActiveCopyDetached(int featureVersion,
            @TempDir Path runDirectory) throws IOException {
        Jdk jdk = Jdks.require(featureVersion);
        jdk.requireModule(JCMD_MODULE, "jcmd");
        Path library = LibraryBesideJar.write(jdk, runDirectory);
        try (LiveJvm target = new ForkedJvm(jdk, runDirectory)
                .option("-XX:+EnableDynamicAgentLoading")
                .javaagent(BuildOutputs.agentJar(), OPTIONS)
                .agentpath(library, OPTIONS)
                .classPath(BuildOutputs.testClasses())
                .startMain(AttachTargetMain.class.getName())) {
            target.awaitLine("ready");
            long pid = target.pid();
            StderrCursor stderr = new StderrCursor(target);
            target.ask("first-tick", "ticking");
            List<String> started = stderr.newAgentLines();
            Stage detach = stage(target, stderr, attachCli(jdk, runDirectory, "detach", pid, null), false);
            Stage load = stage(target, stderr, jcmdLoad(jdk, runDirectory, pid, library, OPTIONS), true);
            ForkResult end = target.finish();
            String describe = "started: " + started + "\ndetach: " + detach + "\nload: " + load + "\ntarget: "
                    + end.describe();

            assertTrue(banner(PACKAGE).matcher(started.get(0)).matches(), describe);
            assertTrue(started.contains("clock-agent: already active in this JVM; the -agentpath copy does nothing"),
                    describe);
            // AttachTargetMain and EarlyClock: LateClock loads first at the probe after the detach.
            assertSent("detach", pid, detach.command());
            assertEquals(List.of("clock-agent: detached: ticker stopped, original code restored in 2 classes"),
                    detach.agentLines(), describe);
            detach.early().assertDirect("after the detach, EarlyClock");
            assertEquals(0, detach.tickers(), describe);
            assertLoaded(pid, 0, load.command());
            assertTrue(banner(PACKAGE).matcher(load.agentLines().get(0)).matches(), describe);
            load.early().assertCached("loaded through jcmd after the detach, EarlyClock");
            load.late().assertCached("loaded through jcmd after the detach, LateClock");
            assertEquals(1, load.tickers(), describe);
            assertEquals(0, end.exitStatus(), describe);
        }
    }

    /** The library starts in a JVM once; after its detach, jcmd reports the refusal and the jar attaches. */
    @OnEachJdk
    void afterADetachTheLibrarySaysItStartsOnceAndTheJarAttaches(int featureVersion) {
        JcmdScenario scenario = jcmdScenarioOn(featureVersion);

        assertLoaded(scenario.pid, JNI_ERR, scenario.loadAfterDetach.command);
        assertEquals(List.of("clock-agent: not attached: this library was detached from this JVM before, and starts in"
                + " a JVM once; attach again with java -jar clock-agent.jar attach"),
                scenario.loadAfterDetach.agentLines, scenario.describe());
        scenario.loadAfterDetach.early.assertDirect("loaded again after the detach, EarlyClock");
        assertSent("attach", scenario.pid, scenario.attach.command);
        assertTrue(banner(PACKAGE).matcher(scenario.attach.agentLines.get(0)).matches(), scenario.describe());
        scenario.attach.early.assertCached("attached through the jar after the detach, EarlyClock");
        assertEquals(1, scenario.attach.tickers, scenario.describe());
        assertEquals(0, scenario.end.exitStatus(), scenario.describe());
    }

    @OnEachJdk
    void withEnableDynamicAgentLoadingTheJvmPrintsNoWarningForTheLoadedLibrary(int featureVersion) {
        JcmdScenario scenario = jcmdScenarioOn(featureVersion);

        assertEquals(List.of(), scenario.end.stderr().stream().filter(line -> line.startsWith("WARNING")).toList(),
                scenario.describe());
    }

    /**
     * strict=true stops a JVM at its start alone: a service that runs keeps running, as after any bad option. Options
     * that jcmd cut at their first {@code =}, not quoted, are refused with the way to pass them whole.
     */
    @OnEachJdk
    void aBadOptionThroughJcmdIsOneLineLoadsNothingAndJcmdReportsTheFailure(int featureVersion,
            @TempDir Path runDirectory) throws IOException {
        Jdk jdk = Jdks.require(featureVersion);
        jdk.requireModule(JCMD_MODULE, "jcmd");
        Path library = LibraryBesideJar.write(jdk, runDirectory);
        try (LiveJvm target = new ForkedJvm(jdk, runDirectory)
                .option("-XX:+EnableDynamicAgentLoading")
                .classPath(BuildOutputs.testClasses())
                .startMain(AttachTargetMain.class.getName())) {
            target.awaitLine("ready");
            long pid = target.pid();
            StderrCursor stderr = new StderrCursor(target);
            Stage bad = stage(target, stderr, jcmdLoad(jdk, runDirectory, pid, library, BAD_TICK), false);
            Stage strict = stage(target, stderr,
                    jcmdLoad(jdk, runDirectory, pid, library, BAD_TICK + ",strict=true"), false);
            Stage unquoted = stage(target, stderr, jcmdLoadAsTyped(jdk, runDirectory, pid, library, OPTIONS), false);
            ForkResult end = target.finish();
            String describe = "bad: " + bad + "\nstrict: " + strict + "\nunquoted: " + unquoted + "\ntarget: "
                    + end.describe();

            for (Stage stage : List.of(bad, strict)) {
                assertLoaded(pid, JNI_ERR, stage.command());
                assertEquals(1, stage.agentLines().size(), describe);
                assertTrue(stage.agentLines().get(0).startsWith(AgentStderr.OFF_PREFIX + "bad duration 'tick=5'"),
                        describe);
                stage.early().assertDirect("after a bad option, EarlyClock");
                assertEquals(0, stage.tickers(), describe);
            }
            assertLoaded(pid, JNI_ERR, unquoted.command());
            assertEquals(1, unquoted.agentLines().size(), describe);
            assertTrue(unquoted.agentLines().get(0).startsWith(AgentStderr.OFF_PREFIX + "'include' is not key=value;"),
                    describe);
            assertTrue(unquoted.agentLines().get(0).endsWith("; jcmd passes the options only up to their first '='"
                    + " unless they are quoted, as in jcmd PID JVMTI.agent_load LIBRARY '\"include=com.acme\"'"),
                    describe);
            assertEquals(0, end.exitStatus(), "the service ran on\n" + describe);
        }
    }

    private static JcmdScenario jcmdScenarioOn(int featureVersion) {
        Jdk jdk = Jdks.require(featureVersion);
        jdk.requireModule(JCMD_MODULE, "jcmd");
        return JCMD_SCENARIOS.computeIfAbsent(featureVersion, version -> playThroughJcmd(jdk));
    }

    /** With -XX:+EnableDynamicAgentLoading, as an operator who loads agents into a JDK 21 or later starts it. */
    private static JcmdScenario playThroughJcmd(Jdk jdk) {
        Path runDirectory = workDirectory.resolve("jcmd-jdk-" + jdk.featureVersion());
        Path library;
        try {
            library = LibraryBesideJar.write(jdk, runDirectory);
        } catch (IOException unwritable) {
            throw new UncheckedIOException(unwritable);
        }
        try (LiveJvm target = new ForkedJvm(jdk, runDirectory)
                .option("-XX:+EnableDynamicAgentLoading")
                .classPath(BuildOutputs.testClasses())
                .startMain(AttachTargetMain.class.getName())) {
            target.awaitLine("ready");
            long pid = target.pid();
            StderrCursor stderr = new StderrCursor(target);
            Stage before = new Stage(null, stderr.newAgentLines(), probe(target, "early"), null, tickers(target));
            Stage load = stage(target, stderr, jcmdLoad(jdk, runDirectory, pid, library, OPTIONS), true);
            Stage secondLoad =
                    stage(target, stderr, jcmdLoad(jdk, runDirectory, pid, library, SECOND_OPTIONS), true);
            Stage detach = stage(target, stderr, attachCli(jdk, runDirectory, "detach", pid, null), false);
            Stage loadAfterDetach =
                    stage(target, stderr, jcmdLoad(jdk, runDirectory, pid, library, OPTIONS), false);
            Stage attach = stage(target, stderr, attachCli(jdk, runDirectory, "attach", pid, OPTIONS), true);
            return new JcmdScenario(pid, before, load, secondLoad, detach, loadAfterDetach, attach, target.finish());
        }
    }

    /**
     * Runs {@code jcmd PID JVMTI.agent_load LIBRARY '"OPTIONS"'} from the target's JDK: quoted, as jcmd otherwise
     * passes the options only up to their first {@code =}.
     */
    private static ForkResult jcmdLoad(Jdk jdk, Path runDirectory, long pid, Path library, String options) {
        return jcmdLoadAsTyped(jdk, runDirectory, pid, library, '"' + options + '"');
    }

    private static ForkResult jcmdLoadAsTyped(Jdk jdk, Path runDirectory, long pid, Path library, String argument) {
        return new ForkedJvm(jdk, runDirectory).runTool("jcmd", Long.toString(pid), "JVMTI.agent_load",
                library.toString(), argument);
    }

    /** jcmd's own lines: the JVM it reached, and what the library's Agent_OnAttach returned. */
    private static void assertLoaded(long pid, int returnCode, ForkResult jcmd) {
        assertEquals(0, jcmd.exitStatus(), jcmd.describe());
        assertEquals(List.of(pid + ":", "return code: " + returnCode), jcmd.stdout(), jcmd.describe());
        assertEquals(List.of(), jcmd.stderr(), jcmd.describe());
    }

    private static Scenario scenarioOn(int featureVersion) {
        Jdk jdk = Jdks.require(featureVersion);
        return SCENARIOS.computeIfAbsent(featureVersion, version -> play(jdk));
    }

    private static Scenario play(Jdk jdk) {
        Path runDirectory = workDirectory.resolve("jdk-" + jdk.featureVersion());
        try (LiveJvm target = new ForkedJvm(jdk, runDirectory)
                .classPath(BuildOutputs.testClasses())
                .startMain(AttachTargetMain.class.getName())) {
            target.awaitLine("ready");
            long pid = target.pid();
            StderrCursor stderr = new StderrCursor(target);
            Stage before = new Stage(null, stderr.newAgentLines(), probe(target, "early"), null, tickers(target));
            Stage attach = stage(target, stderr, attachCli(jdk, runDirectory, "attach", pid, OPTIONS), true);
            Stage secondAttach =
                    stage(target, stderr, attachCli(jdk, runDirectory, "attach", pid, SECOND_OPTIONS), true);
            Stage detach = stage(target, stderr, attachCli(jdk, runDirectory, "detach", pid, null), false);
            Stage reattach = stage(target, stderr, attachCli(jdk, runDirectory, "attach", pid, OPTIONS), true);
            return new Scenario(pid, before, attach, secondAttach, detach, reattach, target.finish());
        }
    }

    /**
     * Probes after the command, so that lines printed as LateClock first loads belong to this stage.
     *
     * @param agentActive whether a ticker should run after the command; the probes then wait for its first tick
     */
    private static Stage stage(LiveJvm target, StderrCursor stderr, ForkResult command, boolean agentActive) {
        if (agentActive) {
            target.ask("first-tick", "ticking");
        }
        Clocks clocks = probeBoth(target);
        long tickers = tickers(target);
        return new Stage(command, stderr.newAgentLines(), clocks.early(), clocks.late(), tickers);
    }

    private static DistinctMillis probe(LiveJvm target, String clock) {
        return DistinctMillis.parse(target.ask(clock, clock + " "));
    }

    /** Both clocks, probed in one loop. */
    private static Clocks probeBoth(LiveJvm target) {
        DistinctMillis early = DistinctMillis.parse(target.ask("both", "early "));
        return new Clocks(early, DistinctMillis.parse(target.awaitLine("late ")));
    }

    private static long tickers(LiveJvm target) {
        return Long.parseLong(target.ask("tickers", "tickers ").substring("tickers ".length()));
    }

    /** Runs {@code java -jar clock-agent.jar COMMAND PID [OPTIONS]} on the target's JDK. */
    private static ForkResult attachCli(Jdk jdk, Path runDirectory, String command, long pid, String options) {
        ForkedJvm cli = new ForkedJvm(jdk, runDirectory);
        return options == null
                ? cli.runJar(BuildOutputs.agentJar(), command, Long.toString(pid))
                : cli.runJar(BuildOutputs.agentJar(), command, Long.toString(pid), options);
    }

    /** A second copy's one line, and the first copy's tick=1s still serving, with its one ticker. */
    private static void assertFirstCopyKept(Stage second, String describe) {
        assertEquals(List.of("clock-agent: already active in this JVM; this copy does nothing"), second.agentLines(),
                "nothing rewritten twice\n" + describe);
        second.early().assertCached("after the second copy (tick=1ms), EarlyClock still at tick=1s");
        assertEquals(1, second.tickers(), describe);
    }

    /** The detach sent and its one line, both clocks direct again, no ticker. */
    private static void assertRestoredAndStopped(long pid, Stage detach, String describe) {
        assertSent("detach", pid, detach.command());
        assertEquals(List.of("clock-agent: detached: ticker stopped, original code restored in " + CLASSES_IN_PACKAGE
                + " classes"), detach.agentLines(), describe);
        detach.early().assertDirect("after the detach, EarlyClock");
        detach.late().assertDirect("after the detach, LateClock");
        assertEquals(0, detach.tickers(), "the ticker thread is gone\n" + describe);
    }

    private static void assertSent(String command, long pid, ForkResult cli) {
        assertEquals(0, cli.exitStatus(), cli.describe());
        assertEquals(List.of("clock-agent: " + command + " sent to " + pid
                + "; the agent reports the outcome on that JVM's stderr"), cli.stdout(), cli.describe());
        assertEquals(List.of(), cli.stderr(), cli.describe());
    }

    private static Pattern banner(String includes) {
        return Pattern.compile(Pattern.quote("clock-agent: " + BuildOutputs.agentVersion()
                + " caching System.currentTimeMillis(): tick=1s wait=park cache=always include=" + includes
                + " exclude=(none) clocksource=") + "\\S.*");
    }

    private static String rewrote(Class<?> clock) {
        return "clock-agent: rewrote " + clock.getName() + ": 1 call sites, 0 method references";
    }

    /** Hands out the target's stderr lines from the agent, each once, in order. */
    private static final class StderrCursor {

        private final LiveJvm target;
        private int seen;

        StderrCursor(LiveJvm target) {
            this.target = target;
        }

        List<String> newAgentLines() {
            List<String> all = target.stderr();
            List<String> fresh = all.subList(seen, all.size());
            seen = all.size();
            return fresh.stream().filter(line -> line.startsWith("clock-agent: ")).collect(Collectors.toList());
        }
    }

    /**
     * One step of the scenario and what followed it.
     *
     * @param command the CLI run, null for the step before any
     * @param agentLines what the agent wrote on the target's stderr during the step
     * @param late null before the attach, where LateClock must not load yet
     */
    private record Stage(ForkResult command, List<String> agentLines, DistinctMillis early, DistinctMillis late,
            long tickers) {
    }

    private record Clocks(DistinctMillis early, DistinctMillis late) {
    }

    private record JcmdScenario(long pid, Stage before, Stage load, Stage secondLoad, Stage detach,
            Stage loadAfterDetach, Stage attach, ForkResult end) {

        String describe() {
            return "before: " + before + "\nload: " + load + "\nsecond load: " + secondLoad + "\ndetach: " + detach
                    + "\nload after the detach: " + loadAfterDetach + "\nattach: " + attach + "\ntarget: "
                    + end.describe();
        }
    }

    private record Scenario(long pid, Stage before, Stage attach, Stage secondAttach, Stage detach, Stage reattach,
            ForkResult end) {

        String describe() {
            return "before: " + before + "\nattach: " + attach + "\nsecond attach: " + secondAttach + "\ndetach: "
                    + detach + "\nattach again: " + reattach + "\ntarget: " + end.describe();
        }
    }
}
