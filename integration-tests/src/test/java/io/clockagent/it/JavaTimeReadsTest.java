package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.time.TimeReadsMain;
import io.clockagent.it.fixtures.time.defaults.DefaultTimeReads;
import io.clockagent.it.fixtures.time.defaults.InstantOnlyReads;
import io.clockagent.it.fixtures.time.instants.CachedInstantReads;
import io.clockagent.it.support.AgentEntry;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ClassFiles;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.GeneratedClocks;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.OnEachJdkThroughBothEntries;
import io.clockagent.it.support.WallClockWindow;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * java.time's reads of the system clock in a real JVM of each JDK, through either entry: by default a system clock
 * made in scope reads its millis from the cache and everything else as before; in a package of {@code cachedInstants}
 * every instant and date-time comes from the cache too, at whole milliseconds, the very Instant the ticker published.
 * The rewriters' bytes are held to each other by the parity test; this runs what they make. With {@code verbose} and
 * {@code report}, the reads of instants left direct are named, with the option that would take them.
 */
class JavaTimeReadsTest {

    private static final String DEFAULTS = DefaultTimeReads.class.getPackageName();
    private static final String INSTANTS = CachedInstantReads.class.getPackageName();
    private static final String CACHE_CLOCK = "java.lang.ClockAgentCachedClock";

    @TempDir
    static Path generatedClasses;

    @BeforeAll
    static void writeGeneratedClasses() {
        ClassFiles.write(generatedClasses, CachedInstantReads.LDC_HANDLE,
                GeneratedClocks.loadingInstantHandle(CachedInstantReads.LDC_HANDLE));
    }

    @OnEachJdkThroughBothEntries
    void systemClocksReadTheCacheAndInstantsOnlyWhereCachedInstantsSaysSo(int featureVersion, AgentEntry entry,
            @TempDir Path runDirectory) {
        long startMillis = System.currentTimeMillis();
        ForkResult result = entry.addTo(new ForkedJvm(Jdks.require(featureVersion), runDirectory),
                        "include=" + DEFAULTS + ":" + INSTANTS + ",cachedInstants=" + INSTANTS
                                + ",cache=always,verbose=true,report=summary")
                .classPath(BuildOutputs.testClasses(), generatedClasses)
                .runMain(TimeReadsMain.class.getName());
        WallClockWindow window = new WallClockWindow(startMillis, System.currentTimeMillis());

        assertEquals(0, result.exitStatus(), result.describe());
        assertTrue(AgentStderr.banner("tick=1ms wait=park cache=always include=" + DEFAULTS + ":" + INSTANTS
                + " exclude=" + AgentStderr.NO_EXCLUDES + " cachedInstants=" + INSTANTS)
                .matcher(result.stderr().get(0)).matches(), result.describe());
        Map<String, String> clocks = result.labelled("clock");
        assertEquals(Map.of("outside", Clock.class.getName() + "$SystemClock", "utc", CACHE_CLOCK,
                "default-zone", CACHE_CLOCK, "in-zone", CACHE_CLOCK, "reference", CACHE_CLOCK), clocks,
                result.describe());
        result.readings("reading").forEach((label, value) -> {
            if (!label.equals("local-date")) {
                window.assertContains(label, value);
            }
        });
        assertEquals(Map.of("to-the-jdk-clock", "true", "hash-and-text", "true"), result.labelled("equal"));
        assertEquals(Map.of("instant-now", "true", "instant-only-class", "true", "utc-instant", "true"),
                result.labelled("fine"),
                "without cachedInstants, instants keep the real clock's resolution\n" + result.describe());
        assertEquals(Map.of("fixed", "true", "user-clock", "true"), result.labelled("untouched"));
        assertEquals(Map.of("instant-now", "true"), result.labelled("shared"), result.describe());
        Map<String, String> whole = new TreeMap<>(Map.of("instant-now", "true", "instant-reference", "true",
                "utc-instant", "true", "local-date-time", "true", "zoned-date-time", "true", "offset-date-time", "true",
                "local-time", "true", "offset-time", "true", "constructor", "true", "interface-default", "true"));
        whole.putAll(Map.of("interface-static", "true", "ldc-method-handle", "true"));
        if (featureVersion >= Jdks.JDK_17) {
            whole.put("record", "true");
        }
        assertEquals(whole, new TreeMap<>(result.labelled("whole")), result.describe());
        List<String> stderr = result.stderr();
        assertTrue(stderr.contains(left(DefaultTimeReads.class.getName(), 1)), "a class also rewritten\n"
                + result.describe());
        assertTrue(stderr.contains(left(InstantOnlyReads.class.getName(), 1)), "a class left as it was\n"
                + result.describe());
        assertTrue(stderr.stream().noneMatch(line -> line.contains(CachedInstantReads.class.getName() + ": ")
                && line.contains(" left ")), result.describe());
        assertTrue(stderr.contains("clock-agent: report: 2 java.time reads of instants in 2 classes left direct, as"
                + " the cache would change their resolution; cachedInstants=PACKAGES takes them (verbose=true names"
                + " the classes)"), result.describe());
    }

    private static String left(String className, int reads) {
        return "clock-agent: left " + className + ": " + reads + " java.time reads of instants direct, as the cache"
                + " would change their resolution; cachedInstants=" + DEFAULTS + " takes them";
    }
}
