package io.clockagent.it.stacks;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.support.AgentEntry;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.Jdk;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.Json;
import io.clockagent.it.support.OnEachJdk;
import io.clockagent.it.support.OnEachJdkThroughBothEntries;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The library clocks service ({@code stacks/library-clocks-service}): snowflake ids of mybatis-plus and Hutool,
 * Sentinel resources, and the static clocks of mybatis-plus, Hutool, Sentinel and Dubbo, each of which starts a thread
 * of its own that stores the time every millisecond once something reads it (issue #49). With the agent at its
 * defaults, through each entry, no such thread may exist, in the service's own list of its threads or in a thread dump,
 * under a light load, and on JDK 17 and 25 under a bursty load that makes {@code cache=auto} switch between cached and
 * direct reads; every id stays unique and increasing per generator, no generator refuses an id for a clock that moved
 * backwards, and no library clock steps back or falls behind. Without the agent, and with {@code libraryClocks=keep},
 * the same checks find the libraries' threads running. One forked service for each JDK without the agent, and for
 * each JDK and entry with each option.
 */
class LibraryClocksStackTest {

    private static final StackService SERVICE = new StackService("library-clocks-service", 11,
            List.of("com.baomidou.", "org.apache.ibatis.", "cn.hutool.", "com.alibaba.csp.sentinel.",
                    "org.apache.dubbo."));
    /** The clock threads of mybatis-plus and of Hutool: both libraries give theirs this name. */
    private static final String SYSTEM_CLOCK_THREAD = "System Clock";
    private static final String SENTINEL_CLOCK_THREAD = "sentinel-time-tick-thread";
    private static final String DUBBO_CLOCK_THREAD = "time-millis-ticker-thread";
    private static final List<String> CLOCKS = List.of("mybatisPlusClock", "hutoolClock", "sentinelClock",
            "dubboClock");
    /**
     * A library clock this far behind the JDK's has stopped: a live one is behind by its 1 ms period and what the
     * scheduler delays its thread. Dubbo 3.3.5's stops at once where its new thread checks that it should run before
     * the thread that started it has said so, which happens here in many starts.
     */
    private static final long STOPPED_LAG_MILLIS = 250;
    private static final int WARMUP_IDS = 100;
    /**
     * A service's start-up traffic before the bursts, a request a millisecond: long enough for the agent's native start
     * to bring up its Java side (it waits for class loading to settle and the clock reads to come), so that the first
     * burst finds the ticker there to decide.
     */
    private static final long STARTUP_TRAFFIC_MILLIS = 1_500;
    /**
     * The bursty load: three times, ids and clock reads flat out (millions of clock reads a second, above break-even on
     * any host, so caching starts within the burst), then a request a millisecond (a few thousand reads a second), long
     * enough for caching to stop: it stops on a trial there, as the bursts' peak keeps its upper bound high, and the
     * first trial comes 4 s after caching started. Three, where three switches are asked for: on a host that runs
     * other builds beside, the first burst may pass before the agent's Java side is up to decide (2 switches once).
     */
    private static final int CYCLES = 3;
    private static final long BURST_MILLIS = 1_500;
    private static final long QUIET_MILLIS = 4_500;
    /** On in a burst, off in the quiet after it, on again in the next burst. */
    private static final long MIN_CACHE_SWITCHES = 3;
    /** A light load, which uses every library clock and leaves the time for a stopped one to fall behind. */
    private static final long LIGHT_BURST_MILLIS = 500;

    @OnEachJdk
    void withoutTheAgentEachLibraryStartsItsOwnClockThread(int featureVersion, @TempDir Path runDirectory)
            throws Exception {
        Jdk jdk = Jdks.require(featureVersion);
        SERVICE.requireRunsOn(jdk);
        Observed without = lightRun(jdk, runDirectory, null, null);

        assertAll(libraryClocksRun(without));
        System.out.println(without.summary("without the agent on JDK " + featureVersion));
    }

    @OnEachJdkThroughBothEntries
    void withTheDefaultsNoLibraryClockThreadStarts(int featureVersion, AgentEntry entry, @TempDir Path runDirectory)
            throws Exception {
        Jdk jdk = Jdks.require(featureVersion);
        SERVICE.requireRunsOn(jdk);
        Observed with = lightRun(jdk, runDirectory, entry, null);

        assertAll(retiredClocksChecks(with));
        System.out.println(with.summary("with the defaults on JDK " + featureVersion + " through " + entry));
    }

    /**
     * The bursty load, which switches caching on and off, once through each entry on the two JDKs whose native starts
     * differ: a cycle takes seconds, and the libraries' retired clocks read the agent's the same way on every JDK and
     * through either entry, as the light runs show.
     */
    @ParameterizedTest(name = "on JDK {0} through {1}")
    @MethodSource("io.clockagent.it.support.AgentEntry#eachOnceOnJdks17And25")
    void withTheDefaultsNoLibraryClockThreadStartsUnderABurstyLoad(int featureVersion, AgentEntry entry,
            @TempDir Path runDirectory) throws Exception {
        Jdk jdk = Jdks.require(featureVersion);
        SERVICE.requireRunsOn(jdk);
        Path reportFile = runDirectory.resolve("report.json");
        Observed with;
        List<Long> burstIterations = new ArrayList<>();
        try (StackRun run = start(jdk, runDirectory, entry, "report=" + reportFile);
                LibraryClocksClient client = new LibraryClocksClient(run.port())) {
            client.ids(WARMUP_IDS);
            client.paced(STARTUP_TRAFFIC_MILLIS);
            for (int cycle = 0; cycle < CYCLES; cycle++) {
                burstIterations.add(client.burst(BURST_MILLIS));
                client.paced(QUIET_MILLIS);
            }
            client.ids(WARMUP_IDS);
            with = observe(jdk, runDirectory, run, client);
        }
        Map<String, Object> report = report(reportFile, with.describe);
        long switches = number(report, "cacheSwitches", with.describe);
        String describe = with.describe + "\nreport: " + report;

        List<Executable> checks = retiredClocksChecks(with);
        checks.add(() -> assertTrue(switches >= MIN_CACHE_SWITCHES, "cache=auto switched " + switches
                + " times under the bursty load, fewer than " + MIN_CACHE_SWITCHES + "\n" + describe));
        assertAll(checks);
        System.out.println(with.summary("with the defaults on JDK " + featureVersion + " through " + entry)
                + "; bursts of " + BURST_MILLIS + " ms: " + burstIterations + " iterations; cache=auto: " + switches
                + " switches, " + report.get("cacheTrialStops") + " trial stops, caching at exit "
                + report.get("caching") + "; rewritten in the libraries: " + libraryClassesRewritten(report));
    }

    @OnEachJdkThroughBothEntries
    void withLibraryClocksKeepEachLibraryStartsItsOwnClockThread(int featureVersion, AgentEntry entry,
            @TempDir Path runDirectory) throws Exception {
        Jdk jdk = Jdks.require(featureVersion);
        SERVICE.requireRunsOn(jdk);
        Observed kept = lightRun(jdk, runDirectory, entry, "libraryClocks=keep");

        List<Executable> checks = new ArrayList<>();
        checks.add(() -> assertAgentRuns(kept));
        checks.addAll(libraryClocksRun(kept));
        assertAll(checks);
        System.out.println(kept.summary("with libraryClocks=keep on JDK " + featureVersion + " through " + entry));
    }

    private static StackRun start(Jdk jdk, Path runDirectory, AgentEntry entry, String agentOptions) {
        return SERVICE.start(jdk, runDirectory, entry, agentOptions, "-Dstack.logDirectory="
                + runDirectory.resolve("logs"));
    }

    /** Ids, a short burst and ids again: every library clock read, and the burst's time for a stopped one to lag. */
    private static Observed lightRun(Jdk jdk, Path runDirectory, AgentEntry entry, String agentOptions)
            throws Exception {
        try (StackRun run = start(jdk, runDirectory, entry, agentOptions);
                LibraryClocksClient client = new LibraryClocksClient(run.port())) {
            client.ids(WARMUP_IDS);
            client.burst(LIGHT_BURST_MILLIS);
            client.ids(WARMUP_IDS);
            return observe(jdk, runDirectory, run, client);
        }
    }

    /** What the service shows of itself and the thread dump shows of it, then its end. */
    private static Observed observe(Jdk jdk, Path runDirectory, StackRun run, LibraryClocksClient client)
            throws IOException {
        List<String> listed = client.threads();
        Optional<List<String>> dumped = ThreadDump.javaThreadNames(jdk, runDirectory, run.pid());
        Map<String, Long> stats = run.stats();
        ForkResult end = run.finish();
        assertEquals(0, end.exitStatus(), end.describe());
        return new Observed(listed, dumped, stats, client.idsAsked(), end.stderr(), end.describe());
    }

    /** The checks that find each library's clock thread, in the service's list and in the dump. */
    private static List<Executable> libraryClocksRun(Observed observed) {
        List<Executable> checks = new ArrayList<>();
        checks.add(() -> assertLibraryClocksRun("the service's list of its threads", observed.listed, observed));
        observed.dumped.ifPresent(dumped -> checks.add(() -> assertLibraryClocksRun("jcmd Thread.print", dumped,
                observed)));
        return checks;
    }

    /**
     * mybatis-plus's and Hutool's threads, Sentinel's, and Dubbo's, or Dubbo's clock stopped where its thread ended at
     * once (see {@link #STOPPED_LAG_MILLIS}).
     */
    private static void assertLibraryClocksRun(String source, List<String> names, Observed observed) {
        String describe = source + ": " + names + "\n" + observed.describe;
        assertEquals(2, Collections.frequency(names, SYSTEM_CLOCK_THREAD), "mybatis-plus's and Hutool's '"
                + SYSTEM_CLOCK_THREAD + "'\n" + describe);
        assertTrue(names.contains(SENTINEL_CLOCK_THREAD), describe);
        assertTrue(names.contains(DUBBO_CLOCK_THREAD)
                || observed.stats.get("dubboClockMaxLagMillis") >= STOPPED_LAG_MILLIS,
                "Dubbo's clock thread runs, or it ended at once and left Dubbo's clock stopped\n" + describe);
    }

    /** With the defaults: the agent runs, no library starts its clock thread, and the libraries' clocks keep time. */
    private static List<Executable> retiredClocksChecks(Observed with) {
        List<Executable> checks = new ArrayList<>();
        checks.add(() -> assertAgentRuns(with));
        checks.addAll(noLibraryClockThread(with));
        checks.add(() -> assertIdsIncreasing(with));
        checks.add(() -> assertNothingStepsBack(with));
        checks.add(() -> assertNoClockStopped(with));
        return checks;
    }

    private static List<Executable> noLibraryClockThread(Observed observed) {
        List<Executable> checks = new ArrayList<>();
        checks.add(() -> assertNoLibraryClockThread("the service's list of its threads", observed.listed,
                observed.describe));
        observed.dumped.ifPresent(dumped -> checks.add(() -> assertNoLibraryClockThread("jcmd Thread.print", dumped,
                observed.describe)));
        return checks;
    }

    private static void assertNoLibraryClockThread(String source, List<String> names, String describe) {
        List<String> found = new ArrayList<>(names);
        found.retainAll(List.of(SYSTEM_CLOCK_THREAD, SENTINEL_CLOCK_THREAD, DUBBO_CLOCK_THREAD));
        assertEquals(List.of(), found, "library clock threads in " + source + ": " + names + "\n" + describe);
    }

    /**
     * Every id of a generator above the one it handed out before, whichever request took either, so all unique: the
     * service checks each, and counts as many taken or refused as were asked for.
     */
    private static void assertIdsIncreasing(Observed observed) {
        for (String generator : LibraryClocksClient.GENERATORS) {
            assertEquals(0L, observed.stats.get(generator + "NotIncreasing"), generator + "\n" + observed.describe);
            assertEquals(observed.idsAsked, observed.stats.get(generator + "Ids")
                    + observed.stats.get(generator + "ClockBackwards"), generator + "\n" + observed.describe);
        }
        assertEquals(0L, observed.stats.get("sentinelBlocked"), "no rule, nothing blocked\n" + observed.describe);
    }

    /** No generator refused an id for a clock that moved backwards, and no reader saw a library clock step back. */
    private static void assertNothingStepsBack(Observed observed) {
        for (String generator : LibraryClocksClient.GENERATORS) {
            assertEquals(0L, observed.stats.get(generator + "ClockBackwards"), generator + "\n" + observed.describe);
        }
        for (String clock : CLOCKS) {
            assertEquals(0L, observed.stats.get(clock + "StepsBack"), clock + "\n" + observed.describe);
        }
    }

    private static void assertNoClockStopped(Observed observed) {
        for (String clock : CLOCKS) {
            long lagMillis = observed.stats.get(clock + "MaxLagMillis");
            assertTrue(lagMillis < STOPPED_LAG_MILLIS, clock + " fell " + lagMillis + " ms behind the JDK's clock\n"
                    + observed.describe);
        }
    }

    /** Its banner, whatever the options: not the line of an agent that refused them and left the service alone. */
    private static void assertAgentRuns(Observed observed) {
        String first = observed.stderr.isEmpty() ? "" : observed.stderr.get(0);
        assertFalse(first.startsWith(AgentStderr.OFF_PREFIX), first + "\n" + observed.describe);
        assertTrue(first.startsWith("clock-agent: " + BuildOutputs.agentVersion() + " caching "), first + "\n"
                + observed.describe);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> report(Path reportFile, String describe) throws IOException {
        assertTrue(Files.isRegularFile(reportFile), "no report at " + reportFile + "\n" + describe);
        return (Map<String, Object>) Json.parse(Files.readString(reportFile, StandardCharsets.UTF_8));
    }

    /** A count of the report's; absent, the ticker never started to decide. */
    private static long number(Map<String, Object> report, String key, String describe) {
        Object value = report.get(key);
        assertNotNull(value, "the report has no " + key + ": the ticker never started\n" + report + "\n" + describe);
        return ((Number) value).longValue();
    }

    @SuppressWarnings("unchecked")
    private static List<String> libraryClassesRewritten(Map<String, Object> report) {
        List<String> classes = new ArrayList<>();
        for (Object listed : (List<Object>) report.get("rewrittenClasses")) {
            String name = (String) ((Map<String, Object>) listed).get("class");
            if (SERVICE.inLibrary(name)) {
                classes.add(name);
            }
        }
        return classes;
    }

    /** What one run showed: the service's threads by itself and by the dump (where the JDK has jcmd), its counts. */
    private record Observed(List<String> listed, Optional<List<String>> dumped, Map<String, Long> stats,
            long idsAsked, List<String> stderr, String describe) {

        String summary(String run) {
            return SERVICE.module() + " " + run + ": threads " + listed + "; " + stats;
        }
    }
}
