package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.options.PeakResidentSetMain;
import io.clockagent.it.support.AgentEntry;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The longest option string each source allows costs the agent's start about what a short one costs: 1 MB in the
 * agent's own arguments, through an {@code @argfile}, which the launcher reads with no kernel limit, and 120,000
 * characters in the system property and the environment variable, which the kernel caps at 128 KiB an argument or
 * variable. Each long run beside a short one of the same shape: the peak resident set the JVM reached by main, the
 * wall time, and the lines the agent printed, each of a bounded length. Before the parser kept the text once, 20,000
 * commas took 819 MB and 3.2 s, and 120,000 in the environment 3.7 GB.
 *
 * <p>The bounds are wide of the figures measured (DEVELOPING.md quotes them): they hold the cost to the order of the
 * text's own size, which the JVM keeps copies of anyway, where a parser quadratic in it exceeds them by far.
 */
class LongestOptionsTest {

    private static final int ARGFILE_CHARACTERS = 1_000_000;
    private static final int ARGUMENT_CHARACTERS = 120_000;
    private static final long MOST_EXTRA_RESIDENT_KB = 12 * 1024;
    private static final long MOST_EXTRA_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final int LONGEST_LINE = 400;

    /** Where the text goes. */
    enum Source { ARGFILE, PROPERTY, ENVIRONMENT_VARIABLE }

    /** What fills it: the shapes whose cost grew fastest with their length. */
    enum Shape {
        /** Empty options, each once a token holding the whole text: refused with one line. */
        COMMAS {
            @Override
            String of(int characters) {
                return ",".repeat(characters);
            }
        },
        /** Empty clocks entries, each once a warning quoting the whole token: the agent runs, with a few lines. */
        CLOCKS_ENTRIES {
            @Override
            String of(int characters) {
                return "clocks=" + ":".repeat(characters - "clocks=".length());
            }
        };

        abstract String of(int characters);
    }

    static Stream<Arguments> cases() {
        return Stream.of(AgentEntry.values()).flatMap(entry -> Stream.of(Source.values()).flatMap(source ->
                Stream.of(Shape.values()).map(shape -> Arguments.of(entry, source, shape))));
    }

    @ParameterizedTest(name = "through {0}, {2} in the {1}")
    @MethodSource("cases")
    void theLongestOptionsCostAboutWhatShortOnesCost(AgentEntry entry, Source source, Shape shape,
            @TempDir Path runDirectory) throws IOException {
        int longest = source == Source.ARGFILE ? ARGFILE_CHARACTERS : ARGUMENT_CHARACTERS;
        Run shortRun = run(entry, source, shape.of(16), runDirectory.resolve("short"));
        Run longRun = run(entry, source, shape.of(longest), runDirectory.resolve("long"));

        String figures = entry + ", " + shape + " in the " + source + ": short " + shortRun + ", long " + longRun;
        System.out.println(figures);
        assertEquals(0, longRun.result.exitStatus(), figures);
        assertTrue(longRun.peakResidentKb - shortRun.peakResidentKb <= MOST_EXTRA_RESIDENT_KB, figures);
        assertTrue(longRun.wallNanos - shortRun.wallNanos <= MOST_EXTRA_NANOS, figures);
        List<String> lines = longRun.result.stderr();
        assertEquals(shortRun.result.stderr().size(), lines.size(), figures + "\n" + excerpts(lines));
        assertTrue(lines.stream().allMatch(line -> line.length() <= LONGEST_LINE), excerpts(lines));
        if (shape == Shape.COMMAS) {
            assertEquals(1, lines.size(), excerpts(lines));
            assertTrue(lines.get(0).startsWith(AgentStderr.OFF_PREFIX + "empty option in ',,,"), lines.get(0));
            assertTrue(lines.get(0).contains("... (" + longest + " characters)"), lines.get(0));
        }
    }

    /** One JVM's figures. */
    private record Run(ForkResult result, long peakResidentKb, long wallNanos) {
        @Override
        public String toString() {
            return peakResidentKb + " kB peak resident, " + TimeUnit.NANOSECONDS.toMillis(wallNanos) + " ms";
        }
    }

    private static Run run(AgentEntry entry, Source source, String options, Path runDirectory) throws IOException {
        Files.createDirectories(runDirectory);
        ForkedJvm jvm = new ForkedJvm(Jdks.require(Jdks.JDK_17), runDirectory).classPath(BuildOutputs.testClasses());
        switch (source) {
            case ARGFILE:
                jvm.option("@" + Files.writeString(runDirectory.resolve("options.argfile"), entry.option(options)));
                break;
            case PROPERTY:
                entry.addTo(jvm, null).option("-Dclockagent.options=" + options);
                break;
            default:
                entry.addTo(jvm, null).environment("CLOCK_AGENT_OPTIONS", options);
                break;
        }
        long started = System.nanoTime();
        ForkResult result = jvm.runMain(PeakResidentSetMain.class.getName());
        long wallNanos = System.nanoTime() - started;
        String peak = result.stdoutLineStartingWith(PeakResidentSetMain.LINE_PREFIX);
        return new Run(result, Long.parseLong(peak.substring(PeakResidentSetMain.LINE_PREFIX.length())), wallNanos);
    }

    /** The lines, each cut to its first characters, for a message that a long line would swamp. */
    private static String excerpts(List<String> lines) {
        return lines.stream().map(line -> line.length() + " characters: "
                + line.substring(0, Math.min(line.length(), LONGEST_LINE))).collect(Collectors.joining("\n"));
    }
}
