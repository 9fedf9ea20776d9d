package io.clockagent.agent.internal.options;

import io.clockagent.agent.internal.nativefilter.CToolchain;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The differential half of the options fuzzer: for every input of a corpus (agent/src/test/c/fuzz/options_fuzzer.c's,
 * or the seeds committed in agent/src/test/c/fuzz/options-corpus/), the Java parser's outcome against the C parser's,
 * run through the parity driver under the sanitizers ({@link OptionsParityDriver}, the comparison
 * {@link NativeOptionsParityTest} makes). {@link OptionsCorpusParityTest} runs it on the committed corpus in every
 * build; fuzz.sh runs {@link #main} on the corpus the harness grew, with the test classes alone on the class path:
 *
 * <pre>cd agent &amp;&amp; java -cp target/test-classes:target/classes \
 *     io.clockagent.agent.internal.options.OptionsCorpusCheck CORPUS_FOLDER...</pre>
 *
 * <p>An input is read as the harness reads it: up to three sources separated by NUL bytes (agent arguments, system
 * property, environment variable), one the input does not reach absent, and past the third source's own NUL nothing.
 * No source of the JVM can hold a NUL, so every input stands for sources the JVM can be given, and none is skipped.
 * C is given the bytes as they are, as the -agentpath entry is given the command line and the environment; Java is
 * given the text C read from them ({@link CParserText}: each malformed byte U+FFFD, neither whitespace, a digit nor
 * part of a name), which the native start hands its Java side to parse again; C quotes such a byte as it is, which
 * the driver's output, read back the same way, shows as U+FFFD too. Such an input is given to C a second time as the
 * -javaagent entry gives it, Java's text encoded as UTF-8 again.
 */
final class OptionsCorpusCheck {

    /** The seeds and regression inputs committed beside the harness; relative to the agent module. */
    static final Path COMMITTED_CORPUS = Path.of("src/test/c/fuzz/options-corpus");
    private static final int SHOWN_DIFFERENCES = 10;

    /** What a check found: how many inputs, of which outcomes, and each input on which the parsers differ. */
    record Result(int inputs, int malformedUtf8, int accepted, int refused, int turnedOff, List<String> differences) {

        String summary() {
            return "options corpus: " + inputs + " inputs (" + malformedUtf8 + " with malformed UTF-8; Java "
                    + accepted + " accepted, " + refused + " refused, " + turnedOff + " turned off by enabled=false),"
                    + " Java and C differ on " + differences.size();
        }
    }

    private OptionsCorpusCheck() {
    }

    /** The three sources of one input, as options_fuzzer.c splits it; null for a source the input does not reach. */
    static byte[][] sources(byte[] input) {
        byte[][] sources = new byte[3][];
        int at = 0;
        for (int source = 0; source < sources.length && (source == 0 || at <= input.length); source++) {
            int end = at;
            while (end < input.length && input[end] != 0) {
                end++;
            }
            sources[source] = Arrays.copyOfRange(input, at, end);
            at = end + 1;
        }
        return sources;
    }

    /** Checks every file of the corpora; a folder that does not exist holds no input. */
    static Result check(CToolchain toolchain, Path workDirectory, List<Path> corpora)
            throws IOException, InterruptedException {
        List<Path> files = new ArrayList<>();
        for (Path corpus : corpora) {
            if (Files.isDirectory(corpus)) {
                try (Stream<Path> listed = Files.list(corpus)) {
                    listed.filter(Files::isRegularFile).sorted(Comparator.comparing(Path::toString))
                            .forEach(files::add);
                }
            }
        }
        // Each input as it is, then, where it holds malformed UTF-8, as the -javaagent entry hands it to C: Java's text
        // encoded as UTF-8 again. The Java parser's outcome on the text must be C's on both.
        List<byte[][]> cases = new ArrayList<>();
        List<String[]> texts = new ArrayList<>();
        List<Integer> inputOfCase = new ArrayList<>();
        int malformed = 0;
        for (int i = 0; i < files.size(); i++) {
            byte[][] sources = sources(Files.readAllBytes(files.get(i)));
            String[] text = new String[sources.length];
            byte[][] encodedAgain = new byte[sources.length][];
            boolean wellFormed = true;
            for (int source = 0; source < sources.length; source++) {
                if (sources[source] != null) {
                    text[source] = CParserText.of(sources[source]);
                    encodedAgain[source] = text[source].getBytes(StandardCharsets.UTF_8);
                    wellFormed &= isUtf8(sources[source]);
                }
            }
            cases.add(sources);
            texts.add(text);
            inputOfCase.add(i);
            if (!wellFormed) {
                malformed++;
                cases.add(encodedAgain);
                texts.add(text);
                inputOfCase.add(i);
            }
        }
        List<String> outcomes = OptionsParityDriver.build(toolchain, workDirectory).run(cases);
        List<String> differences = new ArrayList<>();
        int accepted = 0;
        int refused = 0;
        int turnedOff = 0;
        for (int i = 0; i < cases.size(); i++) {
            String java = OptionsParityDriver.javaOutcome(texts.get(i));
            boolean again = i > 0 && inputOfCase.get(i).equals(inputOfCase.get(i - 1));
            if (!again) {
                accepted += java.startsWith("ok\t") ? 1 : 0;
                refused += java.startsWith("error\t") ? 1 : 0;
                turnedOff += java.startsWith("off\t") ? 1 : 0;
            }
            if (!java.equals(outcomes.get(i))) {
                differences.add(files.get(inputOfCase.get(i)) + (again ? ", encoded again as -javaagent passes it" : "")
                        + ": " + describe(cases.get(i)) + "\n    Java: " + java + "\n    C:    " + outcomes.get(i));
            }
        }
        return new Result(files.size(), malformed, accepted, refused, turnedOff, differences);
    }

    private static boolean isUtf8(byte[] bytes) {
        try {
            StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException malformed) {
            return false;
        }
    }

    /** The sources as printable ASCII: other bytes as \xNN, and a source the input does not reach as "absent". */
    static String describe(byte[][] sources) {
        List<String> described = new ArrayList<>();
        for (byte[] source : sources) {
            if (source == null) {
                described.add("absent");
                continue;
            }
            StringBuilder text = new StringBuilder("'");
            for (byte b : source) {
                int unsigned = b & 0xff;
                text.append(unsigned >= 0x20 && unsigned < 0x7f && unsigned != '\\' ? String.valueOf((char) unsigned)
                        : String.format("\\x%02x", unsigned));
            }
            described.add(text.append('\'').toString());
        }
        return String.join(", ", described);
    }

    /** Checks the corpora named; exit status 0 when the parsers agree on every input, 1 when not, 2 on a failure. */
    public static void main(String[] arguments) throws Exception {
        if (arguments.length == 0) {
            System.err.println("usage: OptionsCorpusCheck CORPUS_FOLDER..., from the agent module's folder");
            System.exit(2);
        }
        List<Path> corpora = new ArrayList<>();
        for (String argument : arguments) {
            corpora.add(Path.of(argument));
        }
        Path workDirectory = Files.createTempDirectory("options-corpus-check");
        Result result;
        try {
            result = check(CToolchain.require(System.getProperty("os.arch")), workDirectory, corpora);
        } finally {
            try (Stream<Path> leftovers = Files.walk(workDirectory)) {
                leftovers.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
        for (String difference : result.differences().subList(0, Math.min(SHOWN_DIFFERENCES,
                result.differences().size()))) {
            System.out.println(difference);
        }
        System.out.println(result.summary());
        System.exit(result.differences().isEmpty() ? 0 : 1);
    }
}
