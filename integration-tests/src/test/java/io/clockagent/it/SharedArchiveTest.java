package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.operability.sites.ConstructorSite;
import io.clockagent.it.fixtures.operability.sites.KnownSites;
import io.clockagent.it.fixtures.operability.sites.NoSites;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ClassLoadLog;
import io.clockagent.it.support.DistinctMillis;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.JarBuilder;
import io.clockagent.it.support.Jdk;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.OnEachJdk;
import io.clockagent.it.support.OperableService;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Class-data sharing with the agent on, archives made as their owners make them: on JDK 11 (and a runtime without
 * the JDK's own archive) a static application CDS archive dumped from the class list of a run without agents; on
 * JDK 17 and 21 a dynamic CDS archive from a run without agents (the JVM refuses to dump one with an agent); on
 * JDK 25 an AOT cache from a training run with the agent (the JVM refuses a cache made without it once
 * {@code -javaagent} adds {@code java.instrument}). Classes the agent leaves alone still come from the archive. A CDS archive hands the agent each archived class as it loads it, so a class the
 * archive holds with its clock reads is rewritten; an AOT cache loads its classes before any agent starts, so such a
 * class keeps its direct reads (README, Limits).
 */
class SharedArchiveTest {

    /* cache=always: the probe tells a rewritten site by its cached values from its first reads. */
    private static final String OPTIONS = OperableService.INCLUDE_SITES + ",tick=1s,verbose=true,cache=always";
    private static final String REWROTE = "clock-agent: rewrote ";

    @OnEachJdk
    void classesWithoutClockReadsStillComeFromTheArchive(int featureVersion, @TempDir Path runDirectory) {
        Jdk jdk = Jdks.require(featureVersion);
        ClassLoadLog classLoads = new ClassLoadLog(runDirectory.resolve("class-load.log"));

        ForkResult result = runWithArchive(jdk, runDirectory, train(jdk, runDirectory, OPTIONS), classLoads, "sites");

        assertEquals(List.of("sites read"), result.stdout(), "the service's line, no JVM warning\n"
                + result.describe());
        List<String> noSitesSources = classLoads.sources(NoSites.class.getName());
        assertEquals(1, noSitesSources.size(), noSitesSources + "\n" + result.describe());
        assertTrue(noSitesSources.get(0).startsWith("shared objects file"), noSitesSources + "\n"
                + result.describe());
        assertTrue(result.stderr().contains(AgentStderr.rewrote(ConstructorSite.class.getName(), 1, 0)),
                result.describe());
    }

    @ParameterizedTest(name = "on JDK {0}")
    @ValueSource(ints = {Jdks.JDK_11, Jdks.JDK_17, Jdks.JDK_21})
    void aClassACdsArchiveHoldsIsRewrittenAsItLoads(int featureVersion, @TempDir Path runDirectory) {
        Jdk jdk = Jdks.require(featureVersion);
        ClassLoadLog classLoads = new ClassLoadLog(runDirectory.resolve("class-load.log"));

        ForkResult result = runWithArchive(jdk, runDirectory, train(jdk, runDirectory, OPTIONS), classLoads,
                "sites", "probe");

        assertTrue(result.stderr().stream().anyMatch(line -> line.startsWith(REWROTE + KnownSites.class.getName())),
                result.describe());
        DistinctMillis.parse(result.stdoutLineStartingWith("probe ")).assertCached("KnownSites.stamp()");
    }

    /** Trained while the agent covered another package, the cache holds KnownSites as compiled. */
    @Test
    void aClassAnAotCacheLoadsBeforeTheAgentStartsKeepsItsDirectReads(@TempDir Path runDirectory) {
        Jdk jdk = Jdks.require(Jdks.JDK_25);
        ClassLoadLog classLoads = new ClassLoadLog(runDirectory.resolve("class-load.log"));

        ForkResult result = runWithArchive(jdk, runDirectory,
                train(jdk, runDirectory, "include=io.clockagent.it.fixtures.elsewhere"), classLoads, "sites", "probe");

        assertEquals(List.of("shared objects file"), classLoads.sources(KnownSites.class.getName()),
                result.describe());
        assertFalse(result.stderr().stream().anyMatch(line -> line.startsWith(REWROTE + KnownSites.class.getName())),
                result.describe());
        DistinctMillis.parse(result.stdoutLineStartingWith("probe ")).assertDirect("KnownSites.stamp()");
    }

    private static ForkResult runWithArchive(Jdk jdk, Path runDirectory, Path archive, ClassLoadLog classLoads,
            String... commands) {
        ForkResult result = new ForkedJvm(jdk, runDirectory)
                .option(archiveOption(jdk, "-XX:AOTCache=", "-XX:SharedArchiveFile=") + archive)
                .option(classLoads.jvmOption())
                .javaagent(BuildOutputs.agentJar(), OPTIONS)
                .classPath(serviceJar(runDirectory))
                .runMain(OperableService.MAIN_CLASS, commands);
        assertEquals(0, result.exitStatus(), result.describe());
        assertTrue(AgentStderr.banner("tick=1s wait=park cache=always " + OperableService.INCLUDE_SITES
                + " exclude=(none)").matcher(result.stderr().get(0)).matches(), result.describe());
        List<String> afterBanner = result.stderr().subList(1, result.stderr().size());
        assertTrue(afterBanner.stream().allMatch(line -> line.startsWith(REWROTE)),
                "after the banner, only the rewritten classes\n" + result.describe());
        return result;
    }

    /**
     * A run of the service that writes the archive as the JVM exits, with the agent where the JDK needs it; on JDK 11,
     * which has no dynamic archive, a run that lists the classes it loads and a second JVM that dumps them.
     */
    private static Path train(Jdk jdk, Path runDirectory, String agentOptions) {
        Path archive = runDirectory.resolve(archiveOption(jdk, "service.aot", "service.jsa"));
        Path classList = runDirectory.resolve("service.classlist");
        ForkedJvm training = new ForkedJvm(jdk, runDirectory).classPath(serviceJar(runDirectory));
        if (usesAotCache(jdk)) {
            training.option("-XX:AOTCacheOutput=" + archive).javaagent(BuildOutputs.agentJar(), agentOptions);
        } else if (hasDynamicArchive(jdk)) {
            training.option("-XX:ArchiveClassesAtExit=" + archive);
        } else {
            training.option("-XX:DumpLoadedClassList=" + classList);
        }
        ForkResult trained = training.runMain(OperableService.MAIN_CLASS, "sites", "probe");
        assertEquals(0, trained.exitStatus(), trained.describe());
        if (Files.isRegularFile(classList)) {
            trained = new ForkedJvm(jdk, runDirectory)
                    .option("-Xshare:dump", "-XX:SharedClassListFile=" + classList, "-XX:SharedArchiveFile=" + archive)
                    .classPath(serviceJar(runDirectory))
                    .runMain(OperableService.MAIN_CLASS);
            assertEquals(0, trained.exitStatus(), trained.describe());
        }
        assertTrue(Files.isRegularFile(archive), "no archive written\n" + trained.describe());
        return archive;
    }

    private static boolean usesAotCache(Jdk jdk) {
        return jdk.featureVersion() >= 25;
    }

    /**
     * {@code -XX:ArchiveClassesAtExit} came with JDK 13, and extends the JDK's own archive, which a runtime made with
     * {@code jlink} lacks until {@code java -Xshare:dump} writes it.
     */
    private static boolean hasDynamicArchive(Jdk jdk) {
        return jdk.featureVersion() >= 13 && Files.isRegularFile(jdk.home().resolve("lib/server/classes.jsa"));
    }

    private static String archiveOption(Jdk jdk, String aotCache, String cdsArchive) {
        return usesAotCache(jdk) ? aotCache : cdsArchive;
    }

    /** Archives keep only classes loaded from jars. */
    private static Path serviceJar(Path runDirectory) {
        Path jar = runDirectory.resolve("service.jar");
        if (!Files.exists(jar)) {
            new JarBuilder()
                    .addPackage(BuildOutputs.testClasses(), "io/clockagent/it/fixtures/operability")
                    .addPackage(BuildOutputs.testClasses(), "io/clockagent/it/fixtures/probe")
                    .writeTo(jar);
        }
        return jar;
    }
}
