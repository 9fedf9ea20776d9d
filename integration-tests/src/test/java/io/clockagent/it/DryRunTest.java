package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.support.AgentEntry;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ClassDump;
import io.clockagent.it.support.ClassFiles;
import io.clockagent.it.support.DistinctMillis;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.InspectorJar;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.OnEachJdkThroughBothEntries;
import io.clockagent.it.support.OperableService;
import io.clockagent.it.support.OperableService.MethodSites;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dryRun=true} finds and reports every call site but rewrites none and starts no ticker: the service goes on
 * reading the direct clock, and every class is defined from its original bytes; through either entry.
 */
class DryRunTest {

    private static final String SITES_PACKAGE_PATH = OperableService.SITES_PACKAGE.replace('.', '/');

    @BeforeAll
    static void theExpectedCountsAreThoseOfTheFixture() {
        OperableService.assertTableMatchesClassFiles();
    }

    @OnEachJdkThroughBothEntries
    void aDryRunReportsEverySiteButRewritesNothingStartsNoTickerAndTheServiceReadsTheDirectClock(
            int featureVersion, AgentEntry entry, @TempDir Path runDirectory) {
        Path dumpDirectory = runDirectory.resolve("dump");

        ForkResult result = entry.addTo(new ForkedJvm(Jdks.require(featureVersion), runDirectory),
                        OperableService.INCLUDE_SITES + ",dryRun=true,verbose=true,report=summary")
                .javaagent(InspectorJar.path(), dumpDirectory.toString())
                .classPath(BuildOutputs.testClasses())
                .runMain(OperableService.MAIN_CLASS, "sites", "tickers", "probe");

        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals(List.of("sites read", "tickers 0"), result.stdout().subList(0, 2), "no ticker thread\n"
                + result.describe());
        DistinctMillis.parse(result.stdoutLineStartingWith("probe ")).assertDirect("KnownSites.stamp() in a dry run");

        List<String> stderr = result.stderr();
        assertEquals(5, stderr.size(), "banner, two classes, two report lines\n" + result.describe());
        assertTrue(AgentStderr.dryRunBanner("tick=1ms wait=park dryRun=true " + OperableService.INCLUDE_SITES
                + " exclude=(none)").matcher(stderr.get(0)).matches(), result.describe());
        Set<String> expectedClassLines = new TreeSet<>();
        OperableService.SITES_BY_CLASS.forEach((className, methods) -> expectedClassLines.add(
                AgentStderr.wouldRewrite(className, total(methods, true), total(methods, false))));
        assertEquals(expectedClassLines, new TreeSet<>(stderr.subList(1, 3)), result.describe());
        assertEquals(List.of(
                "clock-agent: report: " + OperableService.CLASSES_SCANNED + " classes scanned, "
                        + OperableService.CLASSES_REWRITTEN + " would be rewritten (dry run), 0 failed; "
                        + OperableService.CALL_SITES + " call sites and " + OperableService.METHOD_REFERENCES
                        + " method references",
                "clock-agent: report: no ticker (dry run)"), stderr.subList(3, 5), result.describe());

        Map<String, byte[]> originals = ClassFiles.under(BuildOutputs.testClasses(), SITES_PACKAGE_PATH);
        ClassDump dump = ClassDump.readFrom(dumpDirectory);
        assertFalse(originals.isEmpty());
        originals.forEach((name, bytes) -> assertArrayEquals(bytes, dump.classFile("app", name),
                name + " was changed in a dry run"));
    }

    private static int total(Map<String, MethodSites> methods, boolean callSites) {
        int total = 0;
        for (MethodSites method : methods.values()) {
            total += callSites ? method.callSites() : method.methodReferences();
        }
        return total;
    }
}
