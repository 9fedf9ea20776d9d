package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.attach.AttachTargetMain;
import io.clockagent.it.fixtures.attach.EarlyClock;
import io.clockagent.it.fixtures.attach.LateClock;
import io.clockagent.it.support.AgentEntry;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.DistinctMillis;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdk;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.LiveJvm;
import io.clockagent.it.support.OnEachJdk;
import io.clockagent.it.support.OnEachJdkThroughBothEntries;
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
 * again, detach, attach again, probing after each step which clock the service's call sites read.
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

    @TempDir
    static Path workDirectory;
    private static final Map<Integer, Scenario> SCENARIOS = new HashMap<>();

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
        assertEquals(List.of("clock-agent: already active in this JVM; this copy does nothing"),
                scenario.secondAttach.agentLines, "nothing rewritten twice\n" + scenario.describe());
        scenario.secondAttach.early.assertCached("after the second attach (tick=1ms), EarlyClock still at tick=1s");
        assertEquals(1, scenario.secondAttach.tickers, scenario.describe());
    }

    @OnEachJdk
    void detachRestoresTheOriginalCodeAndStopsTheTicker(int featureVersion) {
        Scenario scenario = scenarioOn(featureVersion);

        assertSent("detach", scenario.pid, scenario.detach.command);
        assertEquals(List.of("clock-agent: detached: ticker stopped, original code restored in " + CLASSES_IN_PACKAGE
                + " classes"), scenario.detach.agentLines, scenario.describe());
        scenario.detach.early.assertDirect("after the detach, EarlyClock");
        scenario.detach.late.assertDirect("after the detach, LateClock");
        assertEquals(0, scenario.detach.tickers, "the ticker thread is gone\n" + scenario.describe());
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
            assertSent("detach", pid, detach.command());
            assertEquals(List.of("clock-agent: detached: ticker stopped, original code restored in "
                    + CLASSES_IN_PACKAGE + " classes"), detach.agentLines(), describe);
            detach.early().assertDirect("after the detach, EarlyClock");
            detach.late().assertDirect("after the detach, LateClock");
            assertEquals(0, detach.tickers(), "the ticker thread is gone\n" + describe);
            assertSent("attach", pid, attach.command());
            assertTrue(banner(PACKAGE).matcher(attach.agentLines().get(0)).matches(), describe);
            attach.early().assertCached("attached after the detach, EarlyClock");
            assertEquals(1, attach.tickers(), describe);
            assertEquals(0, end.exitStatus(), describe);
        }
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

    private record Scenario(long pid, Stage before, Stage attach, Stage secondAttach, Stage detach, Stage reattach,
            ForkResult end) {

        String describe() {
            return "before: " + before + "\nattach: " + attach + "\nsecond attach: " + secondAttach + "\ndetach: "
                    + detach + "\nattach again: " + reattach + "\ntarget: " + end.describe();
        }
    }
}
