package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.libraryclocks.LibraryClockReads;
import io.clockagent.it.fixtures.libraryclocks.direct.LibraryClocksMain;
import io.clockagent.it.fixtures.libraryclocks.direct.OwnClocksMain;
import io.clockagent.it.fixtures.libraryclocks.own.InstanceClock;
import io.clockagent.it.fixtures.libraryclocks.own.OwnClockReads;
import io.clockagent.it.fixtures.libraryclocks.own.SystemClock;
import io.clockagent.it.support.AgentEntry;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ClassLoadLog;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdk;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.Json;
import io.clockagent.it.support.OnEachJdk;
import io.clockagent.it.support.OnEachJdkThroughBothEntries;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library clocks the agent retires, with their real jars from Maven Central (mybatis-plus 3 and 2, Hutool 5 and
 * 6, Sentinel, Dubbo, dynamic-tp in both its packages) in a JVM of each JDK, through either entry: at the defaults no
 * library clock class loads, so none starts its thread, while its reads, called or through method references, and the
 * libraries' own (the snowflake ids of mybatis-plus and Hutool of each line, Sentinel entries) come from the agent's
 * clock, within a millisecond of the real one; a member the redirect leaves alone loads its class after all, which
 * the agent says in one line. Without the agent, and with {@code libraryClocks=keep}, every class loads and every
 * thread runs, as the libraries have it.
 */
class LibraryClocksTest {

    private static final String MAIN = LibraryClocksMain.class.getName();
    private static final String OWN_CLOCK = SystemClock.class.getName();
    private static final String INSTANCE_CLOCK = InstanceClock.class.getName();
    /** How far behind the real clock a read of the agent's may be, at the most, on a busy 2-core host. */
    private static final long MOST_BEHIND_MILLIS = 100;
    private static final String DIRECT = LibraryClocksMain.class.getPackageName();
    private static final String READS = LibraryClockReads.class.getName();
    private static final List<String> CLOCK_CLASSES = List.of("com.baomidou.mybatisplus.core.toolkit.SystemClock",
            "cn.hutool.core.date.SystemClock", "com.alibaba.csp.sentinel.util.TimeUtil",
            "org.apache.dubbo.common.utils.TimeUtils", "com.baomidou.mybatisplus.toolkit.SystemClock",
            "org.dromara.hutool.core.date.SystemClock", "org.dromara.dynamictp.common.util.TimeUtil",
            "com.dtp.common.util.TimeUtil");
    private static final List<String> CLOCKS = List.of("mybatis-plus", "hutool", "sentinel", "dubbo",
            "mybatis-plus-2", "hutool-6", "dynamic-tp", "dynamic-tp-1.1.2");
    /**
     * Reads within a millisecond behind the real clock, of the fixture's samples, at the least: most are, but on a
     * 2-core host that runs other builds the ticker falls behind for stretches (153 of 200 once, with sixteen clocks
     * read one after another); a clock frozen or served by nothing would have next to none.
     */
    private static final double WITHIN_A_MILLISECOND_AT_LEAST = 0.5;
    private static final int SAMPLES = 200;
    /**
     * mybatis-plus's and Hutool's clocks, of either line, share a thread name, as do dynamic-tp's of either package.
     * Dubbo's is left out: its ticker reads a flag that its starter sets only after starting it, so that where the
     * thread runs first it ends at once, leaving Dubbo's clock frozen at its first value (dubbo-common 3.3.5), in most
     * starts on a 2-core machine.
     */
    private static final Map<String, String> THREADS_WITHOUT_AGENT = Map.of("System_Clock", "4",
            "sentinel-time-tick-thread", "1", "dtp-time-tick-thread", "2");
    private static final Map<String, String> NO_THREADS = Map.of("System_Clock", "0", "sentinel-time-tick-thread",
            "0", "time-millis-ticker-thread", "0", "dtp-time-tick-thread", "0");

    @OnEachJdkThroughBothEntries
    @SuppressWarnings("unchecked")
    void noLibraryClockClassLoadsAndEveryReadComesFromTheAgentsClock(int featureVersion, AgentEntry entry,
            @TempDir Path runDirectory) throws IOException {
        ClassLoadLog loads = new ClassLoadLog(runDirectory.resolve("class-load.log"));
        Path report = runDirectory.resolve("report.json");
        ForkResult result = run(Jdks.require(featureVersion), runDirectory, entry, "exclude=" + DIRECT
                + ",cache=always,report=" + report, loads);

        assertEquals(0, result.exitStatus(), result.describe());
        assertTrue(AgentStderr.banner("tick=1ms wait=park cache=always include=" + AgentStderr.ALL_CLASSES
                + " exclude=" + DIRECT).matcher(result.stderr().get(0)).matches(), result.describe());
        assertEquals(1, result.stderr().size(), "the banner alone\n" + result.describe());
        for (String clockClass : CLOCK_CLASSES) {
            assertTrue(!loads.loaded(clockClass), clockClass + " never loads\n" + result.describe());
        }
        assertTrue(loads.loaded(READS), result.describe());
        assertEquals(NO_THREADS, result.labelled("threads"), result.describe());
        assertReadsAreTheRealClock(result, CLOCKS);
        assertIdsAndEntries(result);
        Map<String, Object> written = (Map<String, Object>) Json.parse(Files.readString(report));
        assertEquals(List.of("com.baomidou.mybatisplus.core.toolkit.SystemClock (mybatis-plus's clock, thread"
                + " 'System Clock')", "cn.hutool.core.date.SystemClock (Hutool's clock, thread 'System Clock')",
                "com.alibaba.csp.sentinel.util.TimeUtil (Sentinel's clock, thread 'sentinel-time-tick-thread')",
                "org.apache.dubbo.common.utils.TimeUtils (Dubbo's clock, thread 'time-millis-ticker-thread')",
                "com.baomidou.mybatisplus.toolkit.SystemClock (mybatis-plus 2's clock, thread 'System Clock')",
                "org.dromara.hutool.core.date.SystemClock (Hutool 6's clock, thread 'System Clock')",
                "org.dromara.dynamictp.common.util.TimeUtil (dynamic-tp's clock, thread 'dtp-time-tick-thread')",
                "com.dtp.common.util.TimeUtil (dynamic-tp 1.1.2's clock, thread 'dtp-time-tick-thread')"),
                written.get("clockClassesRetired"), result.describe());
        assertEquals(new BigDecimal(CLOCK_CLASSES.size()), written.get("libraryClockThreadsNeverStarted"),
                "each library clock retired is a thread that never started\n" + result.describe());
        assertEquals(List.of(), written.get("clockClassesLoaded"), result.describe());
    }

    @OnEachJdkThroughBothEntries
    @SuppressWarnings("unchecked")
    void aMemberTheRedirectLeavesAloneLoadsItsClassWhichTheAgentSaysOnce(int featureVersion, AgentEntry entry,
            @TempDir Path runDirectory) throws IOException {
        ClassLoadLog loads = new ClassLoadLog(runDirectory.resolve("class-load.log"));
        Path report = runDirectory.resolve("report.json");
        ForkResult result = run(Jdks.require(featureVersion), runDirectory, entry, "exclude=" + DIRECT + ",report="
                + report, loads, "touch");

        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals(List.of("clock-agent: cn.hutool.core.date.SystemClock (Hutool's clock, thread 'System Clock')"
                + " loaded for " + READS + ", which the agent does not redirect: the clock it starts once"
                + " initialized runs beside the agent's"), result.stderr().subList(1, result.stderr().size()),
                result.describe());
        assertTrue(loads.loaded("cn.hutool.core.date.SystemClock"), result.describe());
        assertTrue(!loads.loaded("com.baomidou.mybatisplus.core.toolkit.SystemClock"), result.describe());
        assertEquals(Map.of("System_Clock", "1", "sentinel-time-tick-thread", "0", "time-millis-ticker-thread", "0",
                "dtp-time-tick-thread", "0"), result.labelled("threads"), result.describe());
        assertReadsAreTheRealClock(result, CLOCKS);
        assertIdsAndEntries(result);
        Map<String, Object> written = (Map<String, Object>) Json.parse(Files.readString(report));
        assertEquals(List.of(Map.of("class", "cn.hutool.core.date.SystemClock (Hutool's clock, thread 'System"
                + " Clock')", "loadedFor", READS)), written.get("clockClassesLoaded"), result.describe());
        assertEquals(CLOCK_CLASSES.size() - 1, ((List<?>) written.get("clockClassesRetired")).size(),
                result.describe());
        assertEquals(new BigDecimal(CLOCK_CLASSES.size() - 1), written.get("libraryClockThreadsNeverStarted"),
                "Hutool's, loaded after all, is not among them\n" + result.describe());
    }

    /**
     * The service's own clocks ({@code clocks}): a static one's class never loads, so its thread never starts, while
     * its reads come from the agent's clock; an instance method named by mistake is left as it is, and withdrawn as its
     * class loads, with one line; a malformed entry is left out with one line, and the rest runs.
     */
    @OnEachJdkThroughBothEntries
    @SuppressWarnings("unchecked")
    void theServicesOwnClocksAreRetiredAndAnInstanceMethodNamedByMistakeIsLeftAlone(int featureVersion,
            AgentEntry entry, @TempDir Path runDirectory) throws IOException {
        ClassLoadLog loads = new ClassLoadLog(runDirectory.resolve("class-load.log"));
        Path report = runDirectory.resolve("report.json");
        String own = OWN_CLOCK + ".now:" + INSTANCE_CLOCK + ".now:bad";
        ForkResult result = runMain(Jdks.require(featureVersion), runDirectory, entry, "exclude=" + DIRECT
                + ",cache=always,clocks=" + own + ",report=" + report, loads, OwnClocksMain.class.getName());

        assertEquals(0, result.exitStatus(), result.describe());
        assertTrue(AgentStderr.banner("tick=1ms wait=park cache=always include=" + AgentStderr.ALL_CLASSES
                + " exclude=" + DIRECT + " clocks=" + OWN_CLOCK + ".now:" + INSTANCE_CLOCK + ".now")
                .matcher(result.stderr().get(0)).matches(), result.describe());
        assertEquals(List.of("clock-agent: ignored 'bad' in '" + AgentStderr.excerpt("clocks=" + own)
                + "'; expected a static long method's"
                + " class and name, such as com.acme.time.SystemClock.now, several joined by ':'",
                "clock-agent: " + INSTANCE_CLOCK + " has no static long now() that clocks=" + INSTANCE_CLOCK
                + ".now names: its uses load unchanged from here on"),
                result.stderr().subList(1, result.stderr().size()), result.describe());
        assertTrue(!loads.loaded(OWN_CLOCK), result.describe());
        assertTrue(loads.loaded(INSTANCE_CLOCK), result.describe());
        assertEquals(Map.of("own", "false"), result.labelled("thread"), result.describe());
        assertEquals(Map.of("own", "0"), result.labelled("ahead"), result.describe());
        result.readings("behind").forEach((kind, millis) -> assertTrue(millis <= MOST_BEHIND_MILLIS,
                kind + " " + millis + "\n" + result.describe()));
        assertEquals(Map.of("instance", "true"), result.labelled("lead"), "the instance clock's own reading");
        Map<String, Object> written = (Map<String, Object>) Json.parse(Files.readString(report));
        assertTrue(((List<?>) written.get("clockClassesRetired")).contains(OWN_CLOCK), written.toString());
        assertEquals(new BigDecimal(((List<?>) written.get("clockClassesRetired")).size() - 1),
                written.get("libraryClockThreadsNeverStarted"), "the own clock is not a library's\n" + written);
        assertEquals(List.of(Map.of("class", INSTANCE_CLOCK, "loadedFor", OwnClockReads.class.getName())),
                written.get("clockClassesLoaded"), result.describe());
    }

    /** The same fixture without the agent, and with libraryClocks=keep: every clock class loads, every thread runs. */
    @OnEachJdk
    void withoutTheAgentOrWithTheClocksKeptEveryLibraryClockRuns(int featureVersion, @TempDir Path runDirectory) {
        Jdk jdk = Jdks.require(featureVersion);
        for (AgentEntry entry : new AgentEntry[] {null, AgentEntry.JAVAAGENT, AgentEntry.AGENTPATH}) {
            Path directory = runDirectory.resolve(entry == null ? "without" : entry.name());
            ClassLoadLog loads = new ClassLoadLog(directory.resolve("class-load.log"));
            ForkResult result = run(jdk, directory, entry, "libraryClocks=keep,exclude=" + DIRECT, loads);

            assertEquals(0, result.exitStatus(), result.describe());
            for (String clockClass : CLOCK_CLASSES) {
                assertTrue(loads.loaded(clockClass), clockClass + " loads\n" + result.describe());
            }
            Map<String, String> threads = result.labelled("threads");
            threads.keySet().retainAll(THREADS_WITHOUT_AGENT.keySet());
            assertEquals(THREADS_WITHOUT_AGENT, threads, result.describe());
            assertReadsAreTheRealClock(result, List.of());
            assertIdsAndEntries(result);
        }
    }

    /**
     * Every clock's reads never ahead of the real clock, and those of the clocks the agent serves nearly always within
     * a millisecond behind it.
     */
    private static void assertReadsAreTheRealClock(ForkResult result, List<String> servedByTheAgent) {
        Map<String, String> ahead = result.labelled("ahead");
        Map<String, String> within = result.labelled("within-a-millisecond");
        assertEquals(2 * CLOCKS.size(), ahead.size(), result.describe());
        for (String clock : CLOCKS) {
            for (String kind : List.of("-called", "-referenced")) {
                assertEquals("0", ahead.get(clock + kind), clock + kind + "\n" + result.describe());
                assertTrue(!servedByTheAgent.contains(clock)
                        || Integer.parseInt(within.get(clock + kind)) >= WITHIN_A_MILLISECOND_AT_LEAST * SAMPLES,
                        clock + kind + "\n" + result.describe());
            }
        }
    }

    private static void assertIdsAndEntries(ForkResult result) {
        assertEquals(Map.of("mybatis-plus", "true", "hutool", "true", "mybatis-plus-2", "true", "hutool-6", "true"),
                result.labelled("ids"), result.describe());
        assertEquals(Map.of("sentinel", "1000"), result.labelled("entries"), result.describe());
    }

    private static ForkResult run(Jdk jdk, Path runDirectory, AgentEntry entry, String options, ClassLoadLog loads,
            String... arguments) {
        return runMain(jdk, runDirectory, entry, options, loads, MAIN, arguments);
    }

    /** A fixture with the libraries' jars, through the entry with these options, or without the agent (null). */
    private static ForkResult runMain(Jdk jdk, Path runDirectory, AgentEntry entry, String options,
            ClassLoadLog loads, String main, String... arguments) {
        // Sentinel writes its logs under the user's home unless told otherwise.
        ForkedJvm jvm = new ForkedJvm(jdk, runDirectory).option(loads.jvmOption(),
                "-Dcsp.sentinel.log.dir=" + runDirectory.resolve("sentinel-logs"));
        if (entry != null) {
            entry.addTo(jvm, options);
        }
        List<Path> classPath = new ArrayList<>(List.of(BuildOutputs.testClasses()));
        for (Class<?> fromJar : List.of(com.baomidou.mybatisplus.core.toolkit.IdWorker.class,
                com.baomidou.mybatisplus.annotation.IdType.class, org.apache.ibatis.logging.LogFactory.class,
                cn.hutool.core.lang.Snowflake.class, com.alibaba.csp.sentinel.SphU.class,
                org.apache.dubbo.common.utils.TimeUtils.class, com.baomidou.mybatisplus.toolkit.IdWorker.class,
                org.dromara.hutool.core.data.id.Snowflake.class, org.dromara.dynamictp.common.util.TimeUtil.class,
                com.dtp.common.util.TimeUtil.class)) {
            classPath.add(jarOf(fromJar));
        }
        return jvm.classPath(classPath.toArray(new Path[0])).runMain(main, arguments);
    }

    private static Path jarOf(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException notAPath) {
            throw new IllegalStateException(notAPath);
        }
    }
}
