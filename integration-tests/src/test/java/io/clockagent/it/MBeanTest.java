package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.support.AgentEntry;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ClassLoadLog;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.LiveJvm;
import io.clockagent.it.support.OnEachJdkThroughBothEntries;
import io.clockagent.it.support.OperableService;
import io.clockagent.it.support.RemoteJmx;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MBean {@code io.clockagent:type=ClockAgent}: registered as soon as something in the JVM starts JMX and never
 * before, so a service that never uses JMX does not get {@code java.util.logging} initialised by the agent; absent
 * with {@code jmx=false}; readable remotely the way JConsole and VisualVM read it; and its values agree with what
 * the service holds; through either entry. Waits are liveness bounds, never speed targets.
 */
class MBeanTest {

    private static final String OBJECT_NAME = "io.clockagent:type=ClockAgent";
    private static final String LOG_MANAGER = "java.util.logging.LogManager";
    private static final String MBEAN_SERVER = "com.sun.jmx.mbeanserver.JmxMBeanServer";
    private static final String OPTIONS = "tick=1ms wait=park cache=always " + OperableService.INCLUDE_SITES
            + " exclude=(none)";
    private static final long PATIENCE_MILLIS = 10_000;
    /** How long a JVM with {@code jmx=false} is watched, with its MBean server up, for an MBean that must not come. */
    private static final long ABSENCE_WATCH_MILLIS = 1_000;

    @BeforeAll
    static void theExpectedCountsAreThoseOfTheFixture() {
        OperableService.assertTableMatchesClassFiles();
    }

    @OnEachJdkThroughBothEntries
    void theMBeanIsRegisteredOnceTheServiceStartsJmxAndItsValuesAgreeWithTheService(int featureVersion,
            AgentEntry entry, @TempDir Path runDirectory) {
        // cache=always: the service reads a few times a second, which cache=auto leaves on the direct clock.
        ForkResult result = entry.addTo(new ForkedJvm(Jdks.require(featureVersion), runDirectory),
                        OperableService.INCLUDE_SITES + ",cache=always")
                .classPath(BuildOutputs.testClasses())
                .runMain(OperableService.MAIN_CLASS, "sites", "keep-reading", "jmx " + PATIENCE_MILLIS);

        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals("mbean registered true", result.stdoutLineStartingWith("mbean registered "), result.describe());
        Map<String, String> attributes = result.labelled("attribute");
        String[] ticks = result.stdoutLineStartingWith("ticks ").split(" ");
        long firstTicks = Long.parseLong(ticks[1]);
        long laterTicks = Long.parseLong(ticks[2]);
        assertTrue(firstTicks > 0 && laterTicks > firstTicks, "Ticks grows while the service reads the clock: "
                + firstTicks + " then " + laterTicks);
        Map<String, Object> values = new HashMap<>(attributes);
        values.put("Options", optionsLine(result));
        assertSaneValues(values, false, result.describe());
    }

    @OnEachJdkThroughBothEntries
    void withJmxFalseTheMBeanNeverAppearsEvenWithTheServersUp(int featureVersion, AgentEntry entry,
            @TempDir Path runDirectory) {
        ForkResult result = entry.addTo(new ForkedJvm(Jdks.require(featureVersion), runDirectory),
                        OperableService.INCLUDE_SITES + ",jmx=false")
                .classPath(BuildOutputs.testClasses())
                .runMain(OperableService.MAIN_CLASS, "sites", "keep-reading", "jmx " + ABSENCE_WATCH_MILLIS);

        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals("mbean registered false", result.stdoutLineStartingWith("mbean registered "), result.describe());
        assertEquals(1, result.stderr().size(), "only the banner\n" + result.describe());
    }

    /**
     * The service never touches JMX: while it runs, neither JMX nor {@code java.util.logging} is loaded, though the
     * agent and its ticker are busy. Then a JMX client attaches as JConsole does, which starts JMX in the service;
     * the MBean appears, its values are read remotely, and the class-load log now shows the MBean server, which
     * proves the log would have shown it before. The agent runs with {@code report=summary} here, so it also counts
     * call sites, and the MBean shows the counts.
     */
    @OnEachJdkThroughBothEntries
    void aServiceThatNeverStartsJmxLoadsNoLoggingUntilAJmxToolConnectsAndReadsTheMBeanRemotely(int featureVersion,
            AgentEntry entry, @TempDir Path runDirectory) throws Exception {
        ClassLoadLog classLoads = new ClassLoadLog(runDirectory.resolve("class-load.log"));
        ForkedJvm jvm = new ForkedJvm(Jdks.require(featureVersion), runDirectory).option(classLoads.jvmOption());
        if (featureVersion == Jdks.JDK_11 && entry == AgentEntry.AGENTPATH) {
            /*
             * JDK 11 with its class-data archive cannot start the management agent that JMX tools attach to in a JVM
             * without java.instrument, with or without clock-agent ("jdk.management.agent does not read module
             * java.rmi"); java.instrument, which -javaagent adds, or -Xshare:off avoids it.
             */
            System.out.println("NOTICE: JDK 11 through -agentpath runs with -Xshare:off here: its class-data archive"
                    + " keeps a JVM without java.instrument from starting JMX's management agent, agent or no agent");
            jvm.option("-Xshare:off");
        }
        try (LiveJvm service = entry.addTo(jvm, OperableService.INCLUDE_SITES + ",report=summary,cache=always")
                .classPath(BuildOutputs.testClasses())
                .startMain(OperableService.MAIN_CLASS, "sites", "keep-reading", "probe")) {
            service.awaitLine("probe ");

            assertFalse(classLoads.loaded(LOG_MANAGER), "the agent loaded " + LOG_MANAGER + "\n" + service.describe());
            assertFalse(classLoads.loaded(MBEAN_SERVER), "the agent started JMX\n" + service.describe());

            Map<String, Object> remote;
            try (RemoteJmx jmx = RemoteJmx.connect(service.pid())) {
                assertTrue(jmx.awaitRegistered(OBJECT_NAME, PATIENCE_MILLIS / 1_000), "no " + OBJECT_NAME
                        + " once JMX started\n" + service.describe());
                remote = jmx.attributes(OBJECT_NAME);
            }
            assertTrue(classLoads.loaded(MBEAN_SERVER), "the class-load log shows JMX once started");
            assertTrue((long) remote.get("Ticks") > 0, "Ticks: " + remote);
            assertSaneValues(remote, true, service.describe());
            assertEquals(0, service.finish().exitStatus(), service.describe());
        }
    }

    /**
     * Checks the attributes, read locally (as text) or remotely (as values), against the fixture and the options.
     * The call-site counts are there only when the agent counts them, which a report asks for.
     */
    private static void assertSaneValues(Map<String, ?> attributes, boolean countsSites, String run) {
        String context = attributes + "\n" + run;
        assertEquals(BuildOutputs.agentVersion(), text(attributes, "Version"), context);
        assertEquals(OPTIONS, text(attributes, "Options"), context);
        assertEquals(1_000_000L, number(attributes, "TickNanos"), context);
        assertEquals("park", text(attributes, "WaitStrategy"), context);
        assertEquals("false", text(attributes, "Monotonic"), context);
        assertEquals("false", text(attributes, "DryRun"), context);
        assertFalse(text(attributes, "Clocksource").isBlank(), context);
        assertEquals(OperableService.CLASSES_SCANNED, number(attributes, "ClassesScanned"), context);
        assertEquals(OperableService.CLASSES_REWRITTEN, number(attributes, "ClassesRewritten"), context);
        assertEquals(0L, number(attributes, "ClassesFailed"), context);
        if (countsSites) {
            assertEquals(OperableService.CALL_SITES, number(attributes, "CallSites"), context);
            assertEquals(OperableService.METHOD_REFERENCES, number(attributes, "MethodReferences"), context);
        } else {
            assertFalse(attributes.containsKey("CallSites") || attributes.containsKey("MethodReferences"), context);
        }
        assertTrue(number(attributes, "Ticks") > 0, context);
        for (String counter : List.of("LateTicks", "MaxLagMicros", "IdlePeriods", "CurrentLagMillis")) {
            assertTrue(number(attributes, counter) >= 0, counter + " is never negative: " + context);
        }
        assertEquals(0L, number(attributes, "Clamps"), context);
        assertEquals(0L, number(attributes, "TickerFailures"), context);
        assertTrue(Double.parseDouble(text(attributes, "DirectCallNanos")) > 0.0, context);
    }

    /**
     * The fixture prints one attribute per line; the options text holds spaces, so it is taken whole from its line.
     */
    private static String optionsLine(ForkResult result) {
        return result.stdoutLineStartingWith("attribute Options ").substring("attribute Options ".length());
    }

    private static String text(Map<String, ?> attributes, String name) {
        Object value = attributes.get(name);
        assertTrue(value != null, "no attribute " + name + " in " + attributes.keySet());
        return String.valueOf(value);
    }

    private static long number(Map<String, ?> attributes, String name) {
        return Long.parseLong(text(attributes, name));
    }
}
