package io.clockagent.agent.internal.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.agent.internal.classfile.LibraryClock;
import io.clockagent.agent.internal.clock.WaitStrategy;
import io.clockagent.agent.internal.rewrite.LibraryClockPolicy;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class AgentOptionsTest {

    /* Cases of more than one source; NativeOptionsParityTest feeds them, and every @CsvSource's options, to C too. */
    static final String[] ALL_THREE_SOURCES = {"tick=2ms", "tick=3ms,wait=spin",
        "tick=4ms,wait=park,monotonic=true,include=com.acme"};
    static final String[] PROPERTY_AND_ENVIRONMENT = {null, "include=org.example", "include=com.acme:net.x"};
    static final String[] BAD_ENVIRONMENT = {"tick=1ms", null, "strict=true,wait=sometimes"};
    static final String[] BAD_ENVIRONMENT_OVERRIDDEN = {"wait=spin,strict=true", null, "wait=sometimes"};
    /**
     * The agent arguments, the system property and the environment variable, then the source that turns the agent off
     * (null while it is on): enabled=false from any source wins over every other source and every bad option.
     */
    static final String[][] ENABLED_ACROSS_SOURCES = {
        {"enabled=true,include=com.acme", null, "enabled=false", "CLOCK_AGENT_OPTIONS"},
        {"include=com.acme", "enabled=false", null, "system property clockagent.options"},
        {"enabled=false", "enabled=false", "enabled=false", "agent arguments"},
        {"enabled=true", "enabled=false", "enabled=false", "system property clockagent.options"},
        {"strict=true,colour=blue", null, "enabled=false", "CLOCK_AGENT_OPTIONS"},
        {null, "tick=fast", "wait=sometimes,enabled=false", "CLOCK_AGENT_OPTIONS"},
        {"enabled=maybe", null, "enabled=false", "CLOCK_AGENT_OPTIONS"},
        {"enabled=true", "enabled=true", "enabled=true", null},
        {null, null, "enabled=true,include=com.acme", null},
    };
    /** Three sources and whether the agent is quiet: the strongest that gives quiet, even where it is off. */
    static final String[][] QUIET_ACROSS_SOURCES = {
        {"quiet=true", null, null, "true"},
        {"include=com.acme", "quiet=true", "quiet=false", "true"},
        {"quiet=false", null, "quiet=true", "false"},
        {null, null, "quiet=true,enabled=false", "true"},
        {"quiet=true", null, "enabled=false", "true"},
        {"quiet=false,enabled=false", "quiet=true", null, "false"},
        {"include=com.acme", null, "enabled=false", "false"},
    };
    static final List<String[]> SOURCE_COMBINATIONS = Stream.of(
            Stream.of(ALL_THREE_SOURCES, PROPERTY_AND_ENVIRONMENT, BAD_ENVIRONMENT, BAD_ENVIRONMENT_OVERRIDDEN),
            Arrays.stream(ENABLED_ACROSS_SOURCES).map(row -> Arrays.copyOf(row, 3)),
            Arrays.stream(QUIET_ACROSS_SOURCES).map(row -> Arrays.copyOf(row, 3)))
            .flatMap(rows -> rows).collect(Collectors.toList());

    @ParameterizedTest(name = "''{0}'' means {1}")
    @CsvSource(delimiter = '|', value = {
        "''                                         | tick=1ms wait=park include=(all non-JDK classes) exclude=(none)",
        "tick=1ms                                   | tick=1ms wait=park include=(all non-JDK classes) exclude=(none)",
        "tick=10ms                                  | tick=10ms wait=park include=(all non-JDK classes) exclude=(none)",
        "tick=1s                                    | tick=1s wait=park include=(all non-JDK classes) exclude=(none)",
        "tick=1500us                                | tick=1500us wait=park include=(all non-JDK classes) exclude=(none)",
        "tick=1000000ns                             | tick=1000000ns wait=park include=(all non-JDK classes) exclude=(none)",
        "wait=spin                                  | tick=1ms wait=spin include=(all non-JDK classes) exclude=(none)",
        "monotonic=true                             | tick=1ms wait=park monotonic=true include=(all non-JDK classes) exclude=(none)",
        "include=com.acme                           | tick=1ms wait=park include=com.acme exclude=(none)",
        "include=com.acme.*                         | tick=1ms wait=park include=com.acme exclude=(none)",
        "include=com.acme.**                        | tick=1ms wait=park include=com.acme exclude=(none)",
        "include=com.acme:org.example,include=net.x | tick=1ms wait=park include=com.acme:org.example:net.x exclude=(none)",
        "include=com.acme,exclude=com.acme.legacy   | tick=1ms wait=park include=com.acme exclude=com.acme.legacy",
        "include=com.acme, tick=2ms                 | tick=2ms wait=park include=com.acme exclude=(none)",
        "cachedInstants=ch.qos.logback:org.apache.logging.log4j,cachedInstants=com.acme.log | tick=1ms wait=park"
                + " include=(all non-JDK classes) exclude=(none)"
                + " cachedInstants=ch.qos.logback:org.apache.logging.log4j:com.acme.log",
        "verbose=true,strict=false                  | tick=1ms wait=park include=(all non-JDK classes) exclude=(none)",
        "dryRun=true,jmx=false,report=summary       | tick=1ms wait=park dryRun=true include=(all non-JDK classes) exclude=(none)",
        "nativeFilter=true                          | tick=1ms wait=park nativeFilter=true include=(all non-JDK classes) exclude=(none)",
        "nativeFilter=false                         | tick=1ms wait=park nativeFilter=false include=(all non-JDK classes) exclude=(none)",
    })
    void validOptionsParse(String text, String described) {
        assertEquals(described, AgentOptions.parse(text).describe());
    }

    @ParameterizedTest(name = "''{0}'' is refused, naming ''{1}''")
    @CsvSource(delimiter = '|', value = {
        "colour=blue                | 'colour'     | valid keys: include, exclude, cachedInstants, libraryClocks, clocks, tick",
        "tick                       | 'tick'       | is not key=value",
        "=1ms                       | '=1ms'       | is not key=value",
        "tick=5                     | 'tick=5'     | ns, us, ms or s",
        "tick=fast                  | 'tick=fast'  | ns, us, ms or s",
        "tick=1.5ms                 | 'tick=1.5ms' | whole number",
        "tick=0ms                   | 'tick=0ms'   | from 1ms to 1s",
        "tick=999us                 | 'tick=999us' | from 1ms to 1s",
        "tick=2s                    | 'tick=2s'    | from 1ms to 1s",
        "tick=99999999999999999999s | 'tick=99999999999999999999s' | from 1ms to 1s",
        "tick=1ms,tick=2ms          | 'tick=2ms'   | only once",
        "include=                   | 'include='   | empty package list",
        "include=com..acme          | 'com..acme'  | package name",
        "include=com.acme:          | include=com.acme: | package name",
        "include=3com               | '3com'       | package name",
        "include=java.util          | 'java.util'  | part of the JDK",
        "exclude=io.clockagent.agent | 'io.clockagent.agent' | part of clock-agent",
        "cachedInstants=            | 'cachedInstants=' | empty package list",
        "cachedInstants=java.time   | 'java.time'  | part of the JDK",
        "verbose=yes                | 'verbose=yes' | valid values: true, false",
        "quiet=1                    | 'quiet=1'    | valid values: true, false",
        "dryRun=1                   | 'dryRun=1'   | valid values: true, false",
        "jmx=off                    | 'jmx=off'    | valid values: true, false",
        "nativeFilter=auto          | 'nativeFilter=auto' | valid values: true, false",
        "nativeFilter=true,nativeFilter=false | 'nativeFilter=false' | only once",
        "report=                    | 'report='    | summary, or the path",
        "report=a,report=b          | 'report=b'   | only once",
        "wait=sleep                 | 'wait=sleep' | valid values: park, spin",
        "libraryClocks=off          | 'libraryClocks=off' | valid values: retire, keep",
        "libraryClocks=keep,libraryClocks=retire | 'libraryClocks=retire' | only once",
        "enabled=no                 | 'enabled=no' | valid values: true, false",
        "enabled=FALSE              | 'enabled=FALSE' | valid values: true, false",
        "enabled=                   | 'enabled='   | valid values: true, false",
        "enabled=true,enabled=true  | 'enabled=true' | only once",
        "ENABLED=false              | 'ENABLED'    | valid keys: include, exclude, cachedInstants",
        "include=com.acme,,tick=1ms | empty option | separated by single commas",
        "include=com.acme,          | empty option | separated by single commas",
    })
    void badOptionsAreRefusedWithTheTokenAndTheValidForms(String text, String token, String validForms) {
        AgentOptionsException refused = assertThrows(AgentOptionsException.class, () -> AgentOptions.parse(text));

        assertTrue(refused.getMessage().contains(token), refused.getMessage());
        assertTrue(refused.getMessage().contains(validForms), refused.getMessage());
        assertFalse(refused.getMessage().contains("\n"), "one line");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "clocks=com.acme.time.SystemClock.now       | com/acme/time/SystemClock.now",
        "clocks= com.acme.A.now : org.x.B.millis   | com/acme/A.now org/x/B.millis",
        "clocks=a.B.now,clocks=c.D.now             | a/B.now c/D.now",
        "clocks=Clock.now                           | Clock.now",
        "clocks=a.B.now:a.B.now                     | a/B.now",
    })
    void theServicesOwnClocksFollowTheLibraryClocks(String text, String own) {
        AgentOptions options = AgentOptions.parse(text);

        List<String> methods = options.packages().clockMethods().methods().stream()
                .map(method -> method.owner() + "." + method.name()).collect(Collectors.toList());
        assertEquals(LibraryClock.ALL.size() + own.split(" ").length, methods.size(), methods.toString());
        assertEquals(List.of(own.split(" ")), methods.subList(LibraryClock.ALL.size(), methods.size()));
        assertEquals(List.of(), options.warnings());
        assertTrue(options.describe().contains(" clocks="), options.describe());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "clocks=now                    | 0 | ignored 'now' in 'clocks=now'; expected a static long method's class and",
        "clocks=                       | 0 | ignored '' in 'clocks='; expected",
        "clocks=a.B.now:               | 1 | ignored '' in 'clocks=a.B.now:'; expected",
        "clocks=com..acme.X.now        | 0 | ignored 'com..acme.X.now'",
        "clocks=3com.X.now             | 0 | ignored '3com.X.now'",
        "clocks=a.B.now()              | 0 | ignored 'a.B.now()'",
        "clocks=java.lang.System.nanoTime | 0 | its class is never rewritten (part of the JDK)",
        "clocks=io.clockagent.agent.X.now | 0 | its class is never rewritten",
    })
    void aBadClocksEntryIsLeftOutWithOneLineAndTheRestRuns(String text, int kept, String warning) {
        AgentOptions options = AgentOptions.parse(text + ",tick=2ms");

        assertEquals(1, options.warnings().size(), options.warnings().toString());
        assertTrue(options.warnings().get(0).contains(warning), options.warnings().get(0));
        assertEquals(2_000_000L, options.tickNanos(), "the rest runs as configured");
        assertEquals(LibraryClock.ALL.size() + kept, options.packages().clockMethods().methods().size());
        AgentOptionsException strict = assertThrows(AgentOptionsException.class,
                () -> AgentOptions.parse(text + ",strict=true"));
        assertEquals(options.warnings().get(0), strict.getMessage());
        assertTrue(strict.strictRequested());
    }

    @Test
    void theClocksOptionKeepsAtMostThirtyTwoMethods() {
        String forty = IntStream.range(0, 40).mapToObj(i -> "a.B.m" + i).collect(Collectors.joining(":"));

        AgentOptions options = AgentOptions.parse("clocks=" + forty);

        assertEquals(LibraryClock.ALL.size() + 32, options.packages().clockMethods().methods().size());
        assertEquals(8, options.warnings().size());
        assertTrue(options.warnings().get(0).startsWith("ignored 'a.B.m32' in"), options.warnings().get(0));
        assertTrue(options.warnings().get(0).endsWith(": at most 32 clock methods"), options.warnings().get(0));
    }

    @Test
    void theLibraryClocksAreRetiredUnlessTheOptionKeepsThem() {
        AgentOptions defaults = AgentOptions.parse("");
        AgentOptions kept = AgentOptions.parse("libraryClocks=keep");

        assertEquals(LibraryClockPolicy.RETIRE, defaults.libraryClocks());
        assertEquals(LibraryClock.ALL.stream().map(LibraryClock::method).toList(),
                defaults.packages().clockMethods().methods());
        assertFalse(defaults.describe().contains("libraryClocks"), defaults.describe());
        assertEquals(LibraryClockPolicy.KEEP, kept.libraryClocks());
        assertTrue(kept.packages().clockMethods().isEmpty());
        assertTrue(kept.describe().contains(" libraryClocks=keep "), kept.describe());
        assertEquals(LibraryClockPolicy.RETIRE, AgentOptions.parse("libraryClocks=retire").libraryClocks());
    }

    @Test
    void defaultsAreAOneMillisecondParkingTickerOverAllClasses() {
        AgentOptions defaults = AgentOptions.parse("");

        assertEquals(AgentOptions.DEFAULT_TICK_NANOS, defaults.tickNanos());
        assertEquals(WaitStrategy.PARK, defaults.waitStrategy());
        assertFalse(defaults.verbose());
        assertFalse(defaults.strict());
        assertFalse(defaults.monotonic());
        assertFalse(defaults.dryRun());
        assertTrue(defaults.jmx());
        assertTrue(defaults.nativeFilter());
        assertFalse(defaults.nativeFilterRequested());
        assertTrue(defaults.packages().covers("com/acme/Service"));
    }

    @ParameterizedTest(name = "''{0}'': native filter {1}, asked for {2}")
    @CsvSource(delimiter = '|', value = {
        "tick=1ms            | true  | false",
        "nativeFilter=true   | true  | true",
        "nativeFilter=false  | false | false",
    })
    void theNativeFilterServesUnlessTurnedOffAndSaysWhyNotOnlyWhenAskedFor(String text, boolean serves,
            boolean requested) {
        AgentOptions options = AgentOptions.parse(text);

        assertEquals(serves, options.nativeFilter());
        assertEquals(requested, options.nativeFilterRequested());
    }

    @ParameterizedTest(name = "''{0}'' with a bad option stops the JVM: {1}")
    @CsvSource(delimiter = '|', value = {
        "strict=true,tick=bad       | true",
        "tick=bad, strict = true    | true",
        "strict=false,tick=bad      | false",
        "strict=yes                 | false",
        "STRICT=TRUE                | false",
        "tick=bad                   | false",
        "strict=true,enabled=maybe  | true",
    })
    void aBadOptionKnowsWhetherStrictWasAskedFor(String text, boolean strict) {
        AgentOptionsException refused = assertThrows(AgentOptionsException.class, () -> AgentOptions.parse(text));

        assertEquals(strict, refused.strictRequested());
    }

    @Test
    void theJavaagentStringWinsOverThePropertyWhichWinsOverTheEnvironment() {
        AgentOptions options = fromSources(ALL_THREE_SOURCES);

        assertEquals(2_000_000L, options.tickNanos());
        assertEquals(WaitStrategy.SPIN, options.waitStrategy());
        assertTrue(options.monotonic());
        assertTrue(options.packages().covers("com/acme/Service"));
        assertTrue(options.describe().endsWith("(options from agent arguments, system property clockagent.options,"
                + " CLOCK_AGENT_OPTIONS)"), options.describe());
    }

    @Test
    void aStrongerSourceReplacesEveryValueOfARepeatableKey() {
        AgentOptions options = fromSources(PROPERTY_AND_ENVIRONMENT);

        assertTrue(options.packages().covers("org/example/Service"));
        assertFalse(options.packages().covers("com/acme/Service"));
    }

    @Test
    void aBadOptionNamesTheSourceItCameFrom() {
        AgentOptionsException refused = assertThrows(AgentOptionsException.class,
                () -> fromSources(BAD_ENVIRONMENT));

        assertEquals("bad value in 'wait=sometimes' (from CLOCK_AGENT_OPTIONS); valid values: park, spin",
                refused.getMessage());
        assertTrue(refused.strictRequested());
    }

    @Test
    void aBadOptionIsReportedEvenWhereAStrongerSourceOverridesItsKey() {
        AgentOptionsException refused = assertThrows(AgentOptionsException.class,
                () -> fromSources(BAD_ENVIRONMENT_OVERRIDDEN));

        assertTrue(refused.getMessage().contains("'wait=sometimes' (from CLOCK_AGENT_OPTIONS)"), refused.getMessage());
        assertTrue(refused.strictRequested(), "strict=true from the -javaagent string applies to every source");
    }

    @ParameterizedTest(name = "''{0}'' turns the agent off: {1}")
    @CsvSource(delimiter = '|', nullValues = "ON", value = {
        "enabled=false                        | agent arguments",
        " enabled = false                     | agent arguments",
        "include=com.acme,enabled=false       | agent arguments",
        "enabled=false,colour=blue            | agent arguments",
        "strict=true,tick=fast,enabled=false  | agent arguments",
        "enabled=false,enabled=false          | agent arguments",
        "enabled=true,enabled=false           | agent arguments",
        "enabled=false,,                      | agent arguments",
        "enabled=true                         | ON",
        "enabled=true,include=com.acme        | ON",
    })
    void enabledFalseTurnsTheAgentOffWhateverElseTheOptionsSay(String text, String turnedOffBy) {
        assertEquals(turnedOffBy, AgentOptions.parse(text).turnedOffBy());
    }

    @ParameterizedTest(name = "[{0}] [{1}] [{2}] turn the agent off: {3}")
    @MethodSource("enabledAcrossSources")
    void enabledFalseFromAnySourceWinsOverTheStrongerSources(String agentArguments, String property,
            String variable, String turnedOffBy) {
        assertEquals(turnedOffBy, AgentOptions.fromSources(agentArguments, property, variable).turnedOffBy());
    }

    static Stream<String[]> enabledAcrossSources() {
        return Arrays.stream(ENABLED_ACROSS_SOURCES);
    }

    @ParameterizedTest(name = "[{0}] [{1}] [{2}] quiet: {3}")
    @MethodSource("quietAcrossSources")
    void quietIsTheStrongestSourcesWordEvenWhereEnabledFalseTurnedTheAgentOff(String agentArguments,
            String property, String variable, boolean quiet) {
        assertEquals(quiet, AgentOptions.fromSources(agentArguments, property, variable).quiet());
    }

    static Stream<Object[]> quietAcrossSources() {
        return Arrays.stream(QUIET_ACROSS_SOURCES)
                .map(row -> new Object[] {row[0], row[1], row[2], Boolean.parseBoolean(row[3])});
    }

    @Test
    void quietIsOffByDefaultAndLeavesTheBannerAsItWas() {
        assertFalse(AgentOptions.parse("").quiet());
        assertEquals(AgentOptions.parse("include=com.acme").describe(),
                AgentOptions.parse("quiet=true,include=com.acme").describe());
    }

    @Test
    void enabledTrueIsTheDefaultAndLeavesTheBannerAsItWas() {
        assertEquals(AgentOptions.parse("include=com.acme").describe(),
                AgentOptions.parse("enabled=true,include=com.acme").describe());
        assertNull(AgentOptions.parse("").turnedOffBy());
    }

    @Test
    void theLineOfAnAgentTurnedOffNamesTheSourceAndIsNotABadOptionsLine() {
        assertEquals("off (enabled=false from CLOCK_AGENT_OPTIONS); the service runs without it",
                AgentOptions.turnedOffLine(AgentOptions.fromSources(null, null, "enabled=false").turnedOffBy()));
    }

    @ParameterizedTest(name = "report=''{0}'': summary {1}, file {2}")
    @CsvSource(delimiter = '|', value = {
        "report=summary              | true  | ",
        "report=/tmp/clock-agent.json | false | /tmp/clock-agent.json",
        "tick=1ms                    | false | ",
    })
    void reportIsASummaryOrAFile(String text, boolean summary, String file) {
        AgentOptions options = AgentOptions.parse(text);

        assertEquals(summary, options.reportSummary());
        assertEquals(file, options.reportFile());
    }

    @Test
    void anErrorLineQuotesALongTokenByItsFirstCharactersAndItsLength() {
        AgentOptionsException commas = assertThrows(AgentOptionsException.class,
                () -> AgentOptions.fromSources(null, null, ",".repeat(20_000)));
        AgentOptionsException key = assertThrows(AgentOptionsException.class,
                () -> AgentOptions.parse("k".repeat(100) + "=1"));

        assertEquals("empty option in '" + ",".repeat(64) + "... (20000 characters)' (from CLOCK_AGENT_OPTIONS);"
                + " options are key=value pairs separated by single commas", commas.getMessage());
        assertEquals("unknown option '" + "k".repeat(64) + "... (100 characters)' in '" + "k".repeat(64)
                + "... (102 characters)'; valid keys: " + AgentOptions.VALID_KEYS, key.getMessage());
    }

    @Test
    void aSurrogatePairThatTheCutWouldSplitIsLeftOutWhole() {
        AgentOptionsException bad = assertThrows(AgentOptionsException.class,
                () -> AgentOptions.parse("x".repeat(63) + "\ud835\udd38y"));

        assertTrue(bad.getMessage().startsWith("'" + "x".repeat(63) + "... (66 characters)' is not key=value"),
                bad.getMessage());
    }

    @Test
    void entriesLeftOutPastTheFirstEightShareOneLine() {
        AgentOptions options = AgentOptions.parse("clocks=" + ":".repeat(999) + ",tick=2ms");

        assertEquals(9, options.warnings().size(), options.warnings().toString());
        assertEquals("ignored '' in 'clocks=" + ":".repeat(57) + "... (1006 characters)'; expected "
                + ClockNames.VALID_FORMS, options.warnings().get(0));
        assertEquals("ignored 992 more clocks entries", options.warnings().get(8));
        assertEquals(2_000_000L, options.tickNanos());
    }

    static AgentOptions fromSources(String[] sources) {
        return AgentOptions.fromSources(sources[0], sources[1], sources[2]);
    }
}
