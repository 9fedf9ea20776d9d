package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.time.source.InstantSourceReads;
import io.clockagent.it.support.AgentEntry;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ClassFiles;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.GeneratedClocks;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.WallClockWindow;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code InstantSource.system()}, Java 17's interface of the system clock, called in scope in a real JVM of each JDK
 * that has it, through either entry: it returns the agent's system clock of UTC, called or through a method handle,
 * which reads the real clock's millisecond from the cache; its instants keep the real clock's resolution unless
 * {@code cachedInstants} names the package, where every instant is a whole millisecond.
 */
class InstantSourceTest {

    private static final String PACKAGE = InstantSourceReads.class.getPackageName();
    private static final String CACHE_CLOCK = "java.lang.ClockAgentCachedClock";
    private static final int INSTANTS = 100;

    static Stream<Arguments> jdksWithInstantSource() {
        return Stream.of(Jdks.JDK_17, Jdks.JDK_21, Jdks.JDK_25)
                .flatMap(jdk -> Stream.of(AgentEntry.values()).map(entry -> Arguments.of(jdk, entry)));
    }

    @TempDir
    static Path generatedClasses;

    @BeforeAll
    static void writeGeneratedClasses() {
        ClassFiles.write(generatedClasses, InstantSourceReads.GENERATED,
                GeneratedClocks.instantSources(InstantSourceReads.GENERATED));
    }

    @ParameterizedTest(name = "on JDK {0} through {1}")
    @MethodSource("jdksWithInstantSource")
    void theSystemInstantSourceIsTheAgentsClock(int featureVersion, AgentEntry entry, @TempDir Path runDirectory) {
        long startMillis = System.currentTimeMillis();
        ForkResult plain = run(featureVersion, entry, runDirectory.resolve("plain"), "");
        ForkResult cachedInstants = run(featureVersion, entry, runDirectory.resolve("instants"),
                ",cachedInstants=" + PACKAGE, "cached");
        WallClockWindow window = new WallClockWindow(startMillis, System.currentTimeMillis());

        for (ForkResult result : new ForkResult[] {plain, cachedInstants}) {
            assertEquals(0, result.exitStatus(), result.describe());
            assertEquals(Map.of("called", CACHE_CLOCK, "referenced", CACHE_CLOCK), result.labelled("class"),
                    result.describe());
            result.readings("reading").forEach(window::assertContains);
            assertEquals(Map.of("source", "true"), result.labelled("same"), result.describe());
        }
        assertEquals(Map.of("instants", Integer.toString(INSTANTS)), cachedInstants.labelled("whole-millis"),
                cachedInstants.describe());
        assertTrue(Integer.parseInt(plain.labelled("whole-millis").get("instants")) < INSTANTS,
                "the real clock's instants, most of them between milliseconds\n" + plain.describe());
    }

    private static ForkResult run(int featureVersion, AgentEntry entry, Path runDirectory, String moreOptions,
            String... arguments) {
        return entry.addTo(new ForkedJvm(Jdks.require(featureVersion), runDirectory), "include=" + PACKAGE
                + ",cache=always" + moreOptions)
                .classPath(BuildOutputs.testClasses(), generatedClasses)
                .runMain(InstantSourceReads.class.getName(), arguments);
    }
}
