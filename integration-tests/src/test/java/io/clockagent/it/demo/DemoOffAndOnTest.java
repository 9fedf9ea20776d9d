package io.clockagent.it.demo;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ClockReferences;
import io.clockagent.it.support.Jdk;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.OnEachJdk;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped demo service under load, with the shipped agent jar off and on, on each JDK: the agent changes where
 * the demo's clock reads go and nothing the service computes. One pair of forked runs per JDK serves every check here;
 * the pair's figures are printed, never asserted.
 */
class DemoOffAndOnTest {

    private static final String DEMO_PACKAGE_PATH = DemoRun.DEMO_PACKAGE.replace('.', '/') + "/";
    private static final String SYSTEM_CLOCK = "java.lang.System";
    private static final String CACHED_CLOCK = "java.lang.ClockAgentCachedClock";
    /** Loaded only for the virtual-thread burst, which the demo runs on JDK 21 and later. */
    private static final String BURST_CLASS = DEMO_PACKAGE_PATH + "VirtualThreadBurst";
    private static final int FIRST_JDK_WITH_VIRTUAL_THREADS = 21;

    @TempDir
    static Path workDirectory;
    private static final Map<Integer, OffAndOn> RUNS = new HashMap<>();

    @OnEachJdk
    void theBusinessChecksumIsIdenticalWithTheAgentOffAndOn(int featureVersion) {
        OffAndOn runs = runOn(featureVersion);

        assertEquals(runs.off.checksum(), runs.on.checksum(), "the agent changed what the service computed\n--- off:\n"
                + runs.off.fork().describe() + "\n--- on:\n" + runs.on.fork().describe());
    }

    @OnEachJdk
    void withTheAgentOnEveryClockReadingDemoClassCallsTheCachedClockInstead(int featureVersion) {
        OffAndOn runs = runOn(featureVersion);
        Map<String, byte[]> readers = expectedLoadedReaders(runs.jdk);

        assertEquals(CACHED_CLOCK, runs.on.clockClass(), "where the demo sees its reads go\n"
                + runs.on.fork().describe());
        assertEquals("on", runs.on.result().text("agent"), "the demo found the cached clock defined\n"
                + runs.on.fork().describe());
        assertTrue(runs.on.tickerMeasured(), "the demo finds the ticker, started with the first rewritten class\n"
                + runs.on.fork().describe());
        assertFalse(runs.off.tickerMeasured(), runs.off.fork().describe());
        assertEquals(1, runs.on.fork().stderr().size(), runs.on.fork().describe());
        assertTrue(AgentStderr.javaRewriterBanner(DemoRun.DEMO_PACKAGE, AgentStderr.NO_EXCLUDES)
                .matcher(runs.on.fork().stderr().get(0)).matches(), runs.on.fork().describe());
        assertAll(readers.entrySet().stream().<Executable>map(original -> () -> {
            ClockReferences before = ClockReferences.in(original.getValue());
            ClockReferences after = ClockReferences.in(runs.on.dump().classFile("app", original.getKey()));
            assertEquals(new ClockReferences(0, 0, before.systemCallSites(), before.systemMethodReferences()), after,
                    original.getKey() + ": every System.currentTimeMillis() use redirected, none added");
        }));
    }

    @OnEachJdk
    void withTheAgentOnClassesOutsideTheDemoPackageKeepTheirDirectClockReads(int featureVersion) {
        OffAndOn runs = runOn(featureVersion);
        Map<String, byte[]> outside = new TreeMap<>(runs.on.dump().all());
        outside.keySet().removeIf(name -> name.startsWith("app/" + DEMO_PACKAGE_PATH));

        assertTrue(outside.containsKey("app/org/slf4j/simple/SimpleLogger")
                && ClockReferences.in(outside.get("app/org/slf4j/simple/SimpleLogger")).readsSystemClock(),
                "slf4j-simple, shaded into the demo jar, reads the clock and stays outside the included package");
        assertEquals(List.of(), ClockReferences.rewrittenAmong(outside), "classes outside "
                + DemoRun.DEMO_PACKAGE + " calling the cached clock");
    }

    @OnEachJdk
    void withTheAgentOffTheDemoClassesAreDefinedFromTheirOriginalBytes(int featureVersion) {
        OffAndOn runs = runOn(featureVersion);
        Map<String, byte[]> readers = expectedLoadedReaders(runs.jdk);

        assertEquals(SYSTEM_CLOCK, runs.off.clockClass(), runs.off.fork().describe());
        assertEquals(List.of(), runs.off.fork().stderr(), runs.off.fork().describe());
        assertEquals("off", runs.off.result().text("agent"), "the demo found no cached clock defined\n"
                + runs.off.fork().describe());
        assertAll(readers.entrySet().stream().<Executable>map(original -> () -> assertArrayEquals(original.getValue(),
                runs.off.dump().classFile("app", original.getKey()), original.getKey() + " changed")));
    }

    private static OffAndOn runOn(int featureVersion) {
        Jdk jdk = Jdks.require(featureVersion);
        jdk.requireModule("jdk.httpserver", "the demo's HTTP service");
        return RUNS.computeIfAbsent(featureVersion, version -> {
            Path runDirectory = workDirectory.resolve("jdk-" + version);
            DemoRun off = DemoRun.execute(jdk, false, Map.of(), runDirectory.resolve("off"));
            DemoRun on = DemoRun.execute(jdk, true, Map.of(), runDirectory.resolve("on"));
            System.out.print(DemoTable.render("demo service, agent off and on", jdk, off, on));
            return new OffAndOn(jdk, off, on);
        });
    }

    /**
     * Every class of the demo jar that reads the clock, as compiled: the request path, the demo's rewrite check and,
     * where the JDK has virtual threads, the burst. Each must have been loaded, or the checks above prove nothing.
     */
    private static Map<String, byte[]> expectedLoadedReaders(Jdk jdk) {
        Map<String, byte[]> readers = DemoClockReaders.in(BuildOutputs.demoJar(), DemoRun.DEMO_PACKAGE);
        assertTrue(readers.containsKey(BURST_CLASS), "the demo jar's clock readers: " + readers.keySet());
        if (jdk.featureVersion() < FIRST_JDK_WITH_VIRTUAL_THREADS) {
            readers.remove(BURST_CLASS);
        }
        return readers;
    }

    /** The pair of runs on one JDK. */
    private record OffAndOn(Jdk jdk, DemoRun off, DemoRun on) {
    }
}
