package io.clockagent.agent.internal.options;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.agent.internal.nativefilter.CToolchain;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The options fuzzer's committed corpus (agent/src/test/c/fuzz/options-corpus/: its seeds, and every input on which
 * the parsers once differed), held by {@link OptionsCorpusCheck} to one outcome from the Java parser and the C parser
 * under the sanitizers, in every build; fuzz.sh checks the corpus the fuzzer grows the same way.
 */
class OptionsCorpusParityTest {

    @TempDir
    Path workDirectory;

    @Test
    void theParsersAgreeOnEveryInputOfTheCommittedCorpus() throws Exception {
        OptionsCorpusCheck.Result result = OptionsCorpusCheck.check(
                CToolchain.require(System.getProperty("os.arch")), workDirectory,
                List.of(OptionsCorpusCheck.COMMITTED_CORPUS));

        assertTrue(result.differences().isEmpty(), result.summary() + "\n" + String.join("\n", result.differences()));
        // Seeds that reach every outcome, so that the fuzzer starts from all of them.
        assertTrue(result.inputs() >= 30, result.summary());
        assertTrue(result.accepted() > 0 && result.refused() > 0 && result.turnedOff() > 0
                && result.malformedUtf8() > 0, result.summary());
    }

    @Test
    void anInputSplitsIntoTheThreeSourcesAtNulBytesAsTheHarnessSplitsIt() {
        assertSources(OptionsCorpusCheck.sources(bytes("")), "", null, null);
        assertSources(OptionsCorpusCheck.sources(bytes("tick=1ms")), "tick=1ms", null, null);
        assertSources(OptionsCorpusCheck.sources(bytes("a\0")), "a", "", null);
        assertSources(OptionsCorpusCheck.sources(bytes("a\0\0c")), "a", "", "c");
        assertSources(OptionsCorpusCheck.sources(bytes("\0b\0c\0ignored\0too")), "", "b", "c");
    }

    private static void assertSources(byte[][] sources, String agentArguments, String property, String environment) {
        String[] expected = {agentArguments, property, environment};
        for (int i = 0; i < expected.length; i++) {
            if (expected[i] == null) {
                assertNull(sources[i], "source " + i);
            } else {
                assertArrayEquals(bytes(expected[i]), sources[i], "source " + i);
            }
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
