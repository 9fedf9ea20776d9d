package io.clockagent.agent.internal.options;

import io.clockagent.agent.internal.classfile.ClockMethod;
import io.clockagent.agent.internal.nativefilter.CToolchain;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The C option parser (agent/src/main/c/agent_options.c, with option_text.c) built into its parity driver,
 * agent/src/test/c/parse_options.c, with the sanitizers its toolchain allows, and the Java parser's outcome in the form
 * the driver prints: the one comparison {@link NativeOptionsParityTest} and {@link OptionsCorpusCheck} both make. Plain
 * Java, no JUnit, so that fuzz.sh can run the corpus check with the test classes alone; failures are
 * {@link AssertionError}s. Run from the agent module's folder, as the tests are.
 */
final class OptionsParityDriver {

    /** Where the build writes option_grammar.h from the Java parser's constants; relative to the agent module. */
    private static final String NATIVE_HEADERS = "target/generated-sources/c";
    private static final long BUILD_AND_RUN_TIMEOUT_SECONDS = 120;

    private final CToolchain toolchain;
    private final Path driver;
    private final Path workDirectory;

    private OptionsParityDriver(CToolchain toolchain, Path driver, Path workDirectory) {
        this.toolchain = toolchain;
        this.driver = driver;
        this.workDirectory = workDirectory;
    }

    /** Builds the driver into {@code workDirectory}, which also takes the cases it runs. */
    static OptionsParityDriver build(CToolchain toolchain, Path workDirectory)
            throws IOException, InterruptedException {
        Path driver = workDirectory.resolve("parse_options");
        List<String> flags = new ArrayList<>(List.of("-std=c11", "-O1", "-Wall", "-Wextra", "-Werror", "-Isrc/main/c",
                "-I" + NATIVE_HEADERS));
        flags.addAll(toolchain.sanitizers());
        List<String> command = toolchain.compile(driver.toString(), flags, "src/test/c/parse_options.c",
                "src/main/c/agent_options.c", "src/main/c/option_text.c");
        Process compiler = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(compiler.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        check(compiler.waitFor(BUILD_AND_RUN_TIMEOUT_SECONDS, TimeUnit.SECONDS), "still running: " + command);
        check(compiler.exitValue() == 0, command + "\n" + output);
        return new OptionsParityDriver(toolchain, driver, workDirectory);
    }

    /** The C parser's outcome for each case of three sources, each text or null, as UTF-8. */
    List<String> runTexts(List<String[]> cases) throws IOException, InterruptedException {
        List<byte[][]> encoded = new ArrayList<>();
        for (String[] sources : cases) {
            byte[][] bytes = new byte[sources.length][];
            for (int i = 0; i < sources.length; i++) {
                bytes[i] = sources[i] == null ? null : sources[i].getBytes(StandardCharsets.UTF_8);
            }
            encoded.add(bytes);
        }
        return run(encoded);
    }

    /**
     * The C parser's outcome for each case of three sources, each bytes (no NUL) or null, read back as the C parser
     * reads text ({@link CParserText}): where a case holds malformed UTF-8, the error lines quote it, and read back
     * they hold U+FFFD where the Java parser's messages, given the text the C parser read, do.
     */
    List<String> run(List<byte[][]> cases) throws IOException, InterruptedException {
        HexFormat hex = HexFormat.of();
        StringBuilder input = new StringBuilder();
        for (byte[][] sources : cases) {
            for (int i = 0; i < sources.length; i++) {
                input.append(i == 0 ? "" : " ").append(sources[i] == null ? "-" : hex.formatHex(sources[i]));
            }
            input.append('\n');
        }
        // In as a file: written through a pipe, it would fill while the driver's own output filled.
        Path casesFile = workDirectory.resolve("cases.txt");
        Files.writeString(casesFile, input, StandardCharsets.US_ASCII);
        Process process = new ProcessBuilder(toolchain.run(driver.toString())).redirectInput(casesFile.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        check(process.waitFor(BUILD_AND_RUN_TIMEOUT_SECONDS, TimeUnit.SECONDS), "driver still running");
        check(process.exitValue() == 0, "driver failed, exit status " + process.exitValue());
        List<String> outcomes = new ArrayList<>();
        for (String line : output.isEmpty() ? new String[0] : output.split("\n")) {
            outcomes.add(CParserText.of(hex.parseHex(line)));
        }
        check(cases.size() == outcomes.size(), cases.size() + " cases, " + outcomes.size() + " outcomes");
        return outcomes;
    }

    /** The Java parser's outcome, in the driver's form. */
    static String javaOutcome(String[] sources) {
        try {
            AgentOptions options = AgentOptions.fromSources(sources[0], sources[1], sources[2]);
            if (options.turnedOffBy() != null) {
                return "off\t" + options.turnedOffBy() + "\t" + bit(options.quiet());
            }
            return String.join("\t", "ok", options.describe(), Long.toString(options.tickNanos()),
                    options.cachePolicy().optionValue(), bit(options.monotonic()), bit(options.verbose()),
                    bit(options.quiet()), bit(options.strict()), bit(options.dryRun()), bit(options.jmx()),
                    bit(options.nativeFilter()),
                    bit(options.nativeFilterRequested()),
                    options.reportSummary() ? "summary" : options.reportFile() == null ? "-" : options.reportFile(),
                    String.join(" ", options.packages().includePrefixes()),
                    String.join(" ", options.packages().excludePrefixes()),
                    String.join(" ", options.packages().cachedInstantsPrefixes()),
                    clockMethods(options), String.join("\n", options.warnings()));
        } catch (AgentOptionsException refused) {
            return "error\t" + bit(refused.strictRequested()) + "\t" + refused.getMessage();
        }
    }

    /** Each clock method in force as {@code owner.name}, with {@code ?} where its uses are checked to be static. */
    private static String clockMethods(AgentOptions options) {
        StringBuilder methods = new StringBuilder();
        for (ClockMethod method : options.packages().clockMethods().methods()) {
            methods.append(methods.length() == 0 ? "" : " ").append(method.owner()).append('.').append(method.name())
                    .append(method.knownStatic() ? "" : "?");
        }
        return methods.toString();
    }

    private static String bit(boolean value) {
        return value ? "1" : "0";
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new AssertionError(message);
        }
    }
}
