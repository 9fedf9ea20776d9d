package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.support.AgentEntry;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.Json;
import io.clockagent.it.support.OperableService;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code -agentpath} entry reads its options as the UTF-8 bytes the command line holds, and its Java side, which
 * reads them again, must read the same text: JNI's own strings are modified UTF-8, in which a character beyond the
 * Basic Multilingual Plane is not the four bytes UTF-8 writes. So a report path holding one is written at exactly that
 * path. Through {@code -agentpath} alone: through {@code -javaagent} the JVM itself hands premain its options through
 * JNI's modified UTF-8 (java.instrument), before any code of the agent runs.
 */
class SupplementaryCharactersInOptionsTest {

    /** U+1F600, beyond the Basic Multilingual Plane: four bytes in UTF-8, six in modified UTF-8. */
    private static final String GRINNING_FACE = new String(Character.toChars(0x1F600));

    @ParameterizedTest(name = "on JDK {0}")
    @ValueSource(ints = {Jdks.JDK_17, Jdks.JDK_25})
    void aReportPathWithACharacterBeyondTheBmpIsWrittenAtExactlyThatPath(int featureVersion,
            @TempDir Path runDirectory) throws IOException {
        String fileNames = System.getProperty("sun.jnu.encoding");
        Assumptions.assumeTrue("UTF-8".equals(fileNames), () -> notice("this JVM names files in " + fileNames
                + ", which cannot name " + GRINNING_FACE + " (run with a UTF-8 locale, such as LANG=C.UTF-8)"));
        Path reportFile = Files.createDirectory(runDirectory.resolve("reports-" + GRINNING_FACE))
                .resolve("report.json");

        ForkedJvm jvm = new ForkedJvm(Jdks.require(featureVersion), runDirectory).environment("LC_ALL", "C.UTF-8");
        ForkResult result = AgentEntry.AGENTPATH.addTo(jvm, OperableService.INCLUDE_SITES + ",report=" + reportFile)
                .classPath(BuildOutputs.testClasses())
                .runMain(OperableService.MAIN_CLASS, "sites");

        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals(1, result.stderr().size(), "only the banner: a report file prints nothing\n"
                + result.describe());
        assertTrue(AgentStderr.banner(OperableService.SITES_PACKAGE, AgentStderr.NO_EXCLUDES)
                .matcher(result.stderr().get(0)).matches(), result.describe());
        assertTrue(Files.isRegularFile(reportFile), "no report at " + reportFile + "\n" + result.describe());
        String text = Files.readString(reportFile, StandardCharsets.UTF_8);
        Map<?, ?> report = (Map<?, ?>) Json.parse(text);
        assertEquals(BigDecimal.valueOf(OperableService.CLASSES_REWRITTEN), report.get("classesRewritten"), text);
    }

    private static String notice(String reason) {
        String notice = "NOTICE: " + reason + "; " + SupplementaryCharactersInOptionsTest.class.getSimpleName()
                + " is SKIPPED, not passed.";
        System.out.println(notice);
        return notice;
    }
}
