package io.clockagent.it.stacks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.support.AgentEntry;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.Jdk;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.Json;
import io.clockagent.it.support.OnEachJdkThroughBothEntries;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real service stack under the agent with its default options (no {@code include}: every class outside the JDK),
 * beside the same service without it, on each JDK the stack runs on. Each run is driven over 127.0.0.1 by the
 * subclass's bounded load, which checks every answer, and then checked by the service's own counts. With the agent,
 * stderr holds the banner and what the service prints without it, nothing more; the report names the rewritten
 * classes; and the clock probe shows reads written in the service's package and in one of its framework's served from
 * the cache, where without the agent none is. One forked service per stack and JDK without the agent, and one through
 * each entry.
 */
abstract class StackUnderAgentTest {

    /**
     * A cached read costs about what the probe's loop costs, a direct call 20-40 ns on a {@code tsc} host and more
     * elsewhere: far apart, so that a read below this share of a direct call is served from the cache.
     */
    private static final double CACHED_SHARE_OF_DIRECT = 0.25;
    private static final Map<String, Outcome> RUNS_WITHOUT_AGENT = new HashMap<>();

    /** The service this test runs. */
    abstract StackService service();

    /** Options the service needs besides the agent's, such as a directory for its logs. */
    String[] jvmOptions(Path runDirectory) {
        return new String[0];
    }

    /**
     * Drives a bounded load against the service, asserting every answer.
     *
     * @return the counts the service must then report exactly, by name
     */
    abstract Map<String, Long> drive(int port) throws Exception;

    /** Checks the counts that the load does not fix exactly, such as a scheduler's runs. */
    void assertOtherCounts(Map<String, Long> counts, String describe) {
    }

    /** Checks what the service left behind once it stopped, such as its log files. */
    void assertAfterExit(Path runDirectory, Map<String, Long> counts) throws IOException {
    }

    @OnEachJdkThroughBothEntries
    void servesAsWithoutTheAgentWhileItsClockReadsComeFromTheCache(int featureVersion, AgentEntry entry,
            @TempDir Path runDirectory) throws Exception {
        Jdk jdk = Jdks.require(featureVersion);
        service().requireRunsOn(jdk);
        Path report = runDirectory.resolve("report.json");

        Outcome without = withoutAgent(jdk, runDirectory);
        Outcome with = runOnce(jdk, runDirectory.resolve("with"), entry, "report=" + report);

        String both = "without the agent:\n" + without.describe + "\nwith the agent:\n" + with.describe;
        assertFalse(cached(without.probe[0], without.probe[1]) || cached(without.probe[2], without.probe[3]),
                "without the agent, a read costs a direct call\n" + both);
        assertTrue(cached(with.probe[0], with.probe[1]), "a read in the service's package comes from the cache\n"
                + both);
        assertTrue(cached(with.probe[2], with.probe[3]), "a read in a package of its framework comes from the"
                + " cache\n" + both);
        assertTrue(AgentStderr.banner("(all non-JDK classes)", "(none)").matcher(with.stderr.get(0)).matches(), both);
        assertEquals(without.stderr, with.stderr.subList(1, with.stderr.size()), "the banner, and otherwise what the"
                + " service prints on stderr without the agent\n" + both);
        assertRewritten(report, with.probe, jdk, entry);
    }

    private static boolean cached(double readNanos, double directNanos) {
        return readNanos < CACHED_SHARE_OF_DIRECT * directNanos;
    }

    /** The run without the agent, once per stack and JDK: each entry's run compares with the same one. */
    private Outcome withoutAgent(Jdk jdk, Path runDirectory) throws Exception {
        String key = service().module() + " " + jdk.featureVersion();
        Outcome without = RUNS_WITHOUT_AGENT.get(key);
        if (without == null) {
            without = runOnce(jdk, runDirectory.resolve("without"), null, null);
            RUNS_WITHOUT_AGENT.put(key, without);
        }
        return without;
    }

    private Outcome runOnce(Jdk jdk, Path runDirectory, AgentEntry entry, String agentOptions) throws Exception {
        Files.createDirectories(runDirectory);
        try (StackRun run = service().start(jdk, runDirectory, entry, agentOptions, jvmOptions(runDirectory))) {
            Map<String, Long> expected = drive(run.port());
            Map<String, Long> counts = run.stats();
            for (Map.Entry<String, Long> count : expected.entrySet()) {
                assertEquals(count.getValue(), counts.get(count.getKey()), count.getKey() + " in " + counts + "\n"
                        + run.describe());
            }
            assertOtherCounts(counts, run.describe());
            double[] probe = run.probe();
            ForkResult end = run.finish();
            assertEquals(0, end.exitStatus(), end.describe());
            assertAfterExit(runDirectory, counts);
            return new Outcome(probe, end.stderr(), end.describe());
        }
    }

    /**
     * The report lists the service's classes and its framework's among those rewritten, with their references; their
     * numbers are printed for the record.
     */
    @SuppressWarnings("unchecked")
    private void assertRewritten(Path reportFile, double[] probe, Jdk jdk, AgentEntry entry) throws IOException {
        String text = Files.readString(reportFile, StandardCharsets.UTF_8);
        Map<String, Object> report = (Map<String, Object>) Json.parse(text);
        List<String> rewritten = new ArrayList<>();
        for (Object listed : (List<Object>) report.get("rewrittenClasses")) {
            rewritten.add((String) ((Map<String, Object>) listed).get("class"));
        }
        List<String> inLibraries = rewritten.stream().filter(service()::inLibrary).toList();
        List<String> frameworkOwn = inLibraries.stream().filter(name -> !name.contains(".clockprobe.")).toList();
        long references = ((Number) report.get("callSites")).longValue()
                + ((Number) report.get("methodReferences")).longValue();
        assertEquals(((Number) report.get("classesRewritten")).longValue(), rewritten.size(), text);
        assertTrue(rewritten.stream().anyMatch(name -> name.startsWith("io.clockagent.stacks.")), text);
        assertTrue(inLibraries.stream().anyMatch(name -> name.endsWith(".clockprobe.LibraryClock")), text);
        assertTrue(references >= rewritten.size(), text);
        System.out.println(service().module() + " on JDK " + jdk.featureVersion() + " through " + entry + ": "
                + rewritten.size() + " classes rewritten (" + frameworkOwn.size() + " of its framework and libraries), "
                + report.get("callSites") + " call sites, " + report.get("methodReferences") + " method references,"
                + " of " + report.get("classesScanned") + " classes scanned; probe, ns per read: app " + probe[0]
                + " (direct " + probe[1] + "), library " + probe[2] + " (direct " + probe[3] + "); framework classes: "
                + frameworkOwn);
    }

    /** What one run left: the probe's figures, stderr, and a description for failures. */
    private record Outcome(double[] probe, List<String> stderr, String describe) {
    }
}
