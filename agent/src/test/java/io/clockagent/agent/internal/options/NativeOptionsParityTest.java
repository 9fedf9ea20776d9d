package io.clockagent.agent.internal.options;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.agent.internal.nativefilter.CToolchain;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The C option parser (agent/src/main/c/agent_options.c, with option_text.c) and the Java one ({@link AgentOptions})
 * give the same outcome for every case: the options, the banner's description of them, and the one-line error with
 * whether strict=true was asked for, or the source whose enabled=false turned the agent off. The cases are every option
 * string of {@link AgentOptionsTest}, its cases of several sources, cases made for the corners where C must do what
 * Java's {@code String} and {@code Character} do (whitespace, identifiers and digits of every script, characters beyond
 * the Basic Multilingual Plane), and thousands of random combinations of the grammar's pieces. Built through a small
 * driver, agent/src/test/c/parse_options.c ({@link OptionsParityDriver}, which {@link OptionsCorpusCheck} shares), for
 * each architecture the agent jar carries a library for, the other one run under user-mode emulation, with the
 * sanitizers the architecture allows, so that a memory error on any case fails the test too.
 */
class NativeOptionsParityTest {

    private static final int RANDOM_CASES = 20_000;
    /**
     * Under qemu-user, where each case costs the driver some tenfold: the random cases find where the two parsers'
     * logic parts, which the native runs share; the emulated run is for what the architecture changes (the sign of
     * char, alignment), which the fixed cases and these reach.
     */
    private static final int RANDOM_CASES_EMULATED = 4_000;
    private static final long RANDOM_SEED = 20261126L;
    private static final String[] PIECES = {"include", "exclude", "cachedInstants", "libraryClocks", "tick", "wait", "cache",
        "monotonic", "verbose", "quiet",
        "strict", "report", "dryRun", "jmx", "nativeFilter", "enabled", "colour", "=", "=", "=", ",", ",", ":", ".", ".*", ".**",
        " ", "\t", "true", "false", "TRUE", "park", "spin", "auto", "always", "retire", "keep", "clocks", "SystemClock.now", "summary", "/tmp/r.json", "1", "10", "999",
        "1000000", "99999999999", "ms", "us", "ns", "s", "com", "acme", "java", "util", "io.clockagent.agent", "jdk",
        "com.sun", "3com", "é", "中", "\u0001", "\u00a0", "\u2003", "\u0663", "\uff11", "\ud835\udd38", "$", "_", "-"};

    /** Each key, then values for it: mostly valid ones, and the mistakes a user makes. */
    private static final String[][] KEYS_AND_VALUES = {
        {"include", "com.acme", "org.example.*", "com.acme.**:net.x", " com.acme ", "\u00e9t\u00e9.app", "java.util",
            "io.clockagent.agent.x", "com..acme", "3com", ""},
        {"exclude", "com.acme.legacy", "com.acme.*:org.x", "sun.misc", "com.acme."},
        {"cachedInstants", "ch.qos.logback", "org.apache.logging.log4j:com.acme.log", "java.time", "com..acme", ""},
        {"tick", "1ms", "10ms", "1s", "1500us", "1000000ns", "\u0661\u0660ms", "999us", "2s", "5", "1.5ms"},
        {"wait", "park", "spin", "sleep"},
        {"cache", "auto", "always", "never"},
        {"libraryClocks", "retire", "keep", "off", ""},
        {"clocks", "com.acme.time.SystemClock.now", "a.B.now:c.D.millis", " com.acme.Clock.now ", "now", "java.lang.X.now",
            "io.clockagent.agent.X.now", "com..acme.X.now", "", ":", "cn.hutool.core.date.SystemClock.now",
            "\u00e9t\u00e9.Horloge.maintenant"},
        {"monotonic", "true", "false", "yes"},
        {"verbose", "true", "false"},
        {"quiet", "true", "false", "yes"},
        {"strict", "true", "false", "TRUE"},
        {"report", "summary", "/tmp/clock-agent.json", ""},
        {"dryRun", "true", "false"},
        {"jmx", "true", "false", "off"},
        {"nativeFilter", "true", "false", "auto"},
        {"enabled", "true", "false", "no", "FALSE", ""},
    };

    @TempDir
    Path workDirectory;

    @ParameterizedTest(name = "built for {0}")
    @ValueSource(strings = {"amd64", "aarch64", "amd64-musl"})
    void theCParserAgreesWithTheJavaParserOnEveryCase(String arch) throws Exception {
        CToolchain toolchain = CToolchain.require(arch);
        OptionsParityDriver driver = OptionsParityDriver.build(toolchain, workDirectory);
        List<String[]> cases = new ArrayList<>();
        for (String options : optionsOfTheJavaParsersTests()) {
            cases.add(new String[] {options, null, null});
        }
        cases.addAll(AgentOptionsTest.SOURCE_COMBINATIONS);
        for (String options : corners()) {
            cases.add(new String[] {options, null, null});
            cases.add(new String[] {null, options, null});
            cases.add(new String[] {"tick=1ms", null, options});
        }
        Random random = new Random(RANDOM_SEED);
        int randomCases = toolchain.emulated() ? RANDOM_CASES_EMULATED : RANDOM_CASES;
        for (int i = 0; i < randomCases; i++) {
            cases.add(new String[] {randomOptions(random), randomOptions(random), randomOptions(random)});
        }

        List<String> outcomes = driver.runTexts(cases);

        List<String> disagreements = new ArrayList<>();
        int errors = 0;
        int offs = 0;
        for (int i = 0; i < cases.size(); i++) {
            String java = OptionsParityDriver.javaOutcome(cases.get(i));
            errors += java.startsWith("error") ? 1 : 0;
            offs += java.startsWith("off") ? 1 : 0;
            if (!java.equals(outcomes.get(i))) {
                disagreements.add(describe(cases.get(i)) + "\n    Java: " + java + "\n    C:    " + outcomes.get(i));
            }
        }
        assertTrue(disagreements.isEmpty(), disagreements.size() + " of " + cases.size() + " cases differ, first: "
                + disagreements.subList(0, Math.min(5, disagreements.size())));
        // The cases must reach both outcomes in numbers, or the agreement says little.
        assertTrue(errors > cases.size() / 10 && errors < cases.size() * 9 / 10, errors + " errors in " + cases.size());
        assertTrue(offs > cases.size() / 50, offs + " turned off by enabled=false in " + cases.size());
    }

    /** The first column of every {@code @CsvSource} of {@link AgentOptionsTest}: each is an option string. */
    private static List<String> optionsOfTheJavaParsersTests() {
        List<String> options = new ArrayList<>();
        for (Method test : AgentOptionsTest.class.getDeclaredMethods()) {
            CsvSource source = test.getAnnotation(CsvSource.class);
            if (source == null) {
                continue;
            }
            for (String row : source.value()) {
                String first = row.split("\\" + source.delimiter(), -1)[0].trim();
                options.add(first.equals("''") ? "" : first);
            }
        }
        assertTrue(options.size() > 50, options.size() + " option strings found in AgentOptionsTest");
        return options;
    }

    /** What C must read as Java's String and Character do. */
    private static List<String> corners() {
        List<String> corners = new ArrayList<>(List.of("", " ", "\t", ",", " , ", "=", " =1ms", "tick =  2ms ,",
                "\u2003", "tick=1ms,\u2003", "tick=1ms,\u00a0", "\u00a0", "include=com.\u00e9t\u00e9",
                "include=\u4e2d\u6587.app", "include=com.a\u0001b", "include=com.\ud835\udd38",
                "include=\ud835\udd38", "include= com.acme : org.x.* ", "include=com.acme.", "include=.com",
                "include=com.acme.***", "include=com.*.acme", "include=javax.swing", "include=javaxx.swing",
                "include=com.sun.net", "include=com.sunny", "exclude=jdk", "include=sun", "include=io.clockagent",
                "tick=\u0661\u0660ms", "tick=\uff11\uff10ms", "tick=\ud835\udfcfs", "tick=1\u00a0ms", "tick= 1ms",
                "tick=0001s", "tick=00000000001s", "tick=0000000001s", "tick=1000000000ns", "tick=1000000001ns",
                "tick=1000000us", "tick=1000001us", "tick=1ms,tick=1ms",
                "strict=true,,", "strict = true,bad", "strict=true,strict=true", "report=summary,report=",
                "cache=always,wait=spin,monotonic=true,dryRun=true,nativeFilter=false,jmx=false,verbose=true",
                "libraryClocks=keep,cache=always", "libraryClocks=KEEP", "libraryClocks=keep,libraryClocks=keep",
                "clocks=a.B.now,clocks=a.B.now:c.D.now", "clocks=a.B.now,libraryClocks=keep", "clocks=bad,strict=true",
                "clocks=" + String.join(":", java.util.Collections.nCopies(40, "a.B.now")),
                "clocks=" + java.util.stream.IntStream.range(0, 40).mapToObj(i -> "a.B.m" + i)
                        .collect(java.util.stream.Collectors.joining(":")),
                " enabled = false ", "enabled=false,", "enabled=false,,colour", "enabled=\u2003false",
                "enabled\u00a0=false", "enabled=\tfalse\t", "=false,enabled=false", "enabled=false=false",
                "enabled=false,quiet=true", "quiet=true,enabled=false,quiet=false", "quiet=yes,enabled=false",
                "quiet=true,quiet=true", "quiet=true,verbose=true,report=summary"));
        // Long texts, which error lines quote by their first code units and their length.
        corners.addAll(List.of(",".repeat(20_000), "x".repeat(63) + "\ud835\udd38y", "x".repeat(64), "x".repeat(65),
                "k".repeat(100) + "=1", "tick=" + "1".repeat(100) + "ms", "clocks=" + ":".repeat(999),
                "clocks=" + "3x.Y.now:".repeat(20) + ",strict=true", "include=" + "a.".repeat(50_000) + "a",
                "include=" + "a:".repeat(10_000) + "a", "include=" + "\u00e9".repeat(70) + ".",
                "include=a:" + "\u00e9".repeat(30) + "\ud835\udd38" + "b".repeat(40),
                "report=" + "/r".repeat(200) + ",report=x", "enabled=false" + ",".repeat(20_000)));
        // Every decimal digit Java knows in the BMP, in a tick that is valid and one that is too long.
        for (char c = 0; c < Character.MAX_VALUE; c++) {
            if (Character.isDigit(c)) {
                corners.add("tick=" + c + "s");
                corners.add("tick=" + String.valueOf(c).repeat(11) + "ns");
            }
        }
        return corners;
    }

    /**
     * Up to four tokens: mostly a key with one of its values, which may be valid or not, and now and then a random
     * string of the grammar's pieces, so that valid options and every kind of error both come up often.
     */
    private static String randomOptions(Random random) {
        if (random.nextInt(4) == 0) {
            return null;
        }
        StringBuilder options = new StringBuilder();
        int tokens = random.nextInt(5);
        for (int i = 0; i < tokens; i++) {
            options.append(i == 0 ? "" : ",");
            if (random.nextInt(8) == 0) {
                for (int piece = random.nextInt(6); piece > 0; piece--) {
                    options.append(PIECES[random.nextInt(PIECES.length)]);
                }
            } else {
                String[] keyAndValues = KEYS_AND_VALUES[random.nextInt(KEYS_AND_VALUES.length)];
                options.append(keyAndValues[0]).append(random.nextInt(10) == 0 ? " = " : "=")
                        .append(keyAndValues[1 + random.nextInt(keyAndValues.length - 1)]);
            }
        }
        return options.toString();
    }

    private static String describe(String[] sources) {
        List<String> quoted = new ArrayList<>();
        for (String source : sources) {
            quoted.add(source == null ? "null" : "'" + source + "'");
        }
        return String.join(", ", quoted);
    }
}
