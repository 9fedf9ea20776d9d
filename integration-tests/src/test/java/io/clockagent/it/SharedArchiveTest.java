package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Class-data sharing with the agent on, archives made as their owners make them: on JDK 17 a dynamic CDS archive from
 * a run without agents (the JVM refuses to dump one with an agent), on JDK 25 an AOT cache from a training run with
 * the agent (the JVM refuses a cache made without it once {@code -javaagent} adds {@code java.instrument}). Classes
 * the agent leaves alone still come from the archive. Classes that read the clock are rewritten even when the archive
 * holds them as compiled: JDK 17 hands them to the agent as it loads them; an AOT cache loads them before any agent
 * starts, so the agent retransforms them, and only them, at startup.
 */
class SharedArchiveTest {

    private static final String OPTIONS = OperableService.INCLUDE_SITES + ",tick=1s,verbose=true";

    @OnEachJdk
    void classesLeftAloneComeFromTheArchiveAndEveryClockReadIsCached(int featureVersion,
            @TempDir Path runDirectory) {
        Jdk jdk = Jdks.require(featureVersion);

        assertArchiveServesTheClassesLeftAloneAndEveryReadIsCached(jdk, runDirectory,
                train(jdk, runDirectory, OPTIONS));
    }

    /** Trained while the agent covered another package, the cache holds KnownSites as compiled. */
    @Test
    void aClassAnAotCacheLoadsBeforeTheAgentStartsIsRewrittenAtStartup(@TempDir Path runDirectory) {
        Jdk jdk = Jdks.require(Jdks.NEWEST_TESTED);

        assertArchiveServesTheClassesLeftAloneAndEveryReadIsCached(jdk, runDirectory,
                train(jdk, runDirectory, "include=io.clockagent.it.fixtures.elsewhere"));
    }

    private static void assertArchiveServesTheClassesLeftAloneAndEveryReadIsCached(Jdk jdk, Path runDirectory,
            Path archive) {
        ClassLoadLog classLoads = new ClassLoadLog(runDirectory.resolve("class-load.log"));

        ForkResult result = new ForkedJvm(jdk, runDirectory)
                .option(archiveOption(jdk, "-XX:AOTCache=", "-XX:SharedArchiveFile=") + archive)
                .option(classLoads.jvmOption())
                .javaagent(BuildOutputs.agentJar(), OPTIONS)
                .classPath(serviceJar(runDirectory))
                .runMain(OperableService.MAIN_CLASS, "sites", "probe");

        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals(2, result.stdout().size(), "the service's two lines, no JVM warning\n" + result.describe());
        List<String> noSitesSources = classLoads.sources(NoSites.class.getName());
        assertEquals(1, noSitesSources.size(), noSitesSources + "\n" + result.describe());
        assertTrue(noSitesSources.get(0).startsWith("shared objects file"), noSitesSources + "\n"
                + result.describe());
        DistinctMillis.parse(result.stdoutLineStartingWith("probe ")).assertCached("KnownSites.stamp()");
        List<String> stderr = result.stderr();
        assertEquals(3, stderr.size(), "the banner and the two rewritten classes, no JVM warning\n"
                + result.describe());
        assertTrue(AgentStderr.banner("tick=1s wait=park " + OperableService.INCLUDE_SITES
                + " exclude=(none)").matcher(stderr.get(0)).matches(), result.describe());
        Set<String> rewritten = new TreeSet<>();
        for (String line : stderr.subList(1, 3)) {
            rewritten.add(line.substring(0, line.indexOf(':', "clock-agent: ".length())));
        }
        assertEquals(Set.of("clock-agent: rewrote " + ConstructorSite.class.getName(),
                "clock-agent: rewrote " + KnownSites.class.getName()), rewritten, result.describe());
    }

    /** A run of the service that writes the archive as the JVM exits; with the agent where the JDK needs it. */
    private static Path train(Jdk jdk, Path runDirectory, String agentOptions) {
        Path archive = runDirectory.resolve(archiveOption(jdk, "service.aot", "service.jsa"));
        ForkedJvm training = new ForkedJvm(jdk, runDirectory)
                .option(archiveOption(jdk, "-XX:AOTCacheOutput=", "-XX:ArchiveClassesAtExit=") + archive)
                .classPath(serviceJar(runDirectory));
        if (usesAotCache(jdk)) {
            training.javaagent(BuildOutputs.agentJar(), agentOptions);
        }
        ForkResult trained = training.runMain(OperableService.MAIN_CLASS, "sites", "probe");
        assertEquals(0, trained.exitStatus(), trained.describe());
        assertTrue(Files.isRegularFile(archive), "no archive written\n" + trained.describe());
        return archive;
    }

    private static boolean usesAotCache(Jdk jdk) {
        return jdk.featureVersion() >= 25;
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
