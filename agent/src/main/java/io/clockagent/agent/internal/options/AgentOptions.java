package io.clockagent.agent.internal.options;

import io.clockagent.agent.internal.caching.CachePolicy;
import io.clockagent.agent.internal.clock.WaitStrategy;
import io.clockagent.agent.internal.rewrite.LibraryClockPolicy;
import io.clockagent.agent.internal.rewrite.PackageSelection;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The agent's settings, parsed once at startup; immutable and safe to share between threads.
 *
 * <p>Options come from up to three sources, merged key by key: the {@code -javaagent:clock-agent.jar=OPTIONS} string
 * wins over the system property {@value #SYSTEM_PROPERTY}, which wins over the environment variable
 * {@value #ENVIRONMENT_VARIABLE}. A key given in a stronger source replaces all its values from weaker ones, so
 * {@code include} can be redefined, not only extended. The one exception is {@code enabled=false}: from any source it
 * turns the agent off, whatever the stronger sources say and whatever else is wrong in any of them, as an operator
 * switching off an agent baked into an image's command line, through the environment, must get it off.
 */
public final class AgentOptions {

    public static final String SYSTEM_PROPERTY = "clockagent.options";
    public static final String ENVIRONMENT_VARIABLE = "CLOCK_AGENT_OPTIONS";
    static final String AGENT_ARGUMENTS = "agent arguments";

    public static final long DEFAULT_TICK_NANOS = 1_000_000L;
    public static final long MIN_TICK_NANOS = 1_000_000L;
    public static final long MAX_TICK_NANOS = 1_000_000_000L;

    static final List<String> KEYS = List.of("include", "exclude", "cachedInstants", "libraryClocks", "clocks", "tick",
            "wait", "cache", "monotonic", "verbose", "quiet", "strict", "report", "dryRun", "jmx", "nativeFilter",
            "enabled");
    static final String VALID_KEYS = String.join(", ", KEYS);
    static final String ENABLED = "enabled";
    static final String QUIET = "quiet";
    private static final String SUMMARY = "summary";

    private final PackageSelection packages;
    private final LibraryClockPolicy libraryClocks;
    /** Entries left out, each a line to print after the banner ({@code clocks}). */
    private final List<String> warnings;
    private final long tickNanos;
    private final String tickText;
    private final WaitStrategy waitStrategy;
    /** Null when not given: {@link CachePolicy#AUTO}. */
    private final CachePolicy cachePolicy;
    private final boolean monotonic;
    private final boolean verbose;
    /** Whether the lines said by default are left out; see {@link #quiet()}. */
    private final boolean quiet;
    private final boolean strict;
    private final String report;
    private final boolean dryRun;
    private final boolean jmx;
    /** Null when not given: the native filter then serves where it can start, and falls back without a word. */
    private final Boolean nativeFilter;
    private final Set<String> sources;
    /** The source whose {@code enabled=false} turned the agent off; null while it is on. */
    private final String turnedOffBy;

    private AgentOptions(Builder built, Set<String> sources, String turnedOffBy, boolean quiet) {
        this.libraryClocks = built.libraryClocks == null ? LibraryClockPolicy.RETIRE : built.libraryClocks;
        this.packages = new PackageSelection(built.includes, built.excludes, built.cachedInstants, libraryClocks,
                built.clocks);
        this.warnings = built.leftOut.lines();
        this.tickNanos = built.tickNanos == null ? DEFAULT_TICK_NANOS : built.tickNanos;
        this.tickText = built.tickNanos == null ? "1ms" : built.tickText;
        this.waitStrategy = built.waitStrategy == null ? WaitStrategy.PARK : built.waitStrategy;
        this.cachePolicy = built.cachePolicy;
        this.monotonic = Boolean.TRUE.equals(built.monotonic);
        this.verbose = Boolean.TRUE.equals(built.verbose);
        this.quiet = quiet;
        this.strict = Boolean.TRUE.equals(built.strict);
        this.report = built.report;
        this.dryRun = Boolean.TRUE.equals(built.dryRun);
        this.jmx = !Boolean.FALSE.equals(built.jmx);
        this.nativeFilter = built.nativeFilter;
        this.sources = sources;
        this.turnedOffBy = turnedOffBy;
    }

    /**
     * Parses one option string: {@code key=value} pairs separated by commas.
     *
     * @throws AgentOptionsException naming the offending token and the valid forms
     */
    public static AgentOptions parse(String text) {
        return fromSources(text, null, null);
    }

    /**
     * Merges and parses the three sources; any may be null. Where any of them says {@code enabled=false}, the agent is
     * off ({@link #turnedOffBy}) and nothing else is read: no bad option is reported and {@code strict=true} stops
     * nothing.
     *
     * @throws AgentOptionsException naming the offending token, its source, and the valid forms
     */
    public static AgentOptions fromSources(String agentArguments, String systemProperty, String environmentVariable) {
        String[][] bySource = {
            {AGENT_ARGUMENTS, agentArguments},
            {"system property " + SYSTEM_PROPERTY, systemProperty},
            {ENVIRONMENT_VARIABLE, environmentVariable},
        };
        // Read before anything is judged, as the one line enabled=false prints is silenced by quiet=true too.
        boolean quietRequested = requested(bySource, QUIET);
        // Before anything is judged: a kill switch that a typo elsewhere, or strict=true, could defeat is none.
        for (String[] source : bySource) {
            for (OptionToken token : OptionToken.split(source[1], source[0])) {
                if (ENABLED.equals(token.key()) && token.value().equals("false")) {
                    return new AgentOptions(new Builder(), Set.of(), source[0], quietRequested);
                }
            }
        }
        boolean strictRequested = requested(bySource, "strict");
        try {
            // Each source on its own first: a bad option is reported even where a stronger source overrides its key.
            // Then every key is a valid one, and the sources merge key by key, each token read once more.
            for (String[] source : bySource) {
                judge(OptionToken.split(source[1], source[0]));
            }
            Builder built = new Builder();
            Set<String> keysTaken = new LinkedHashSet<>();
            Set<String> sources = new LinkedHashSet<>();
            for (String[] source : bySource) {
                Set<String> keysHere = new LinkedHashSet<>();
                for (OptionToken token : OptionToken.split(source[1], source[0])) {
                    if (!keysTaken.contains(token.key())) {
                        built.accept(token);
                        keysHere.add(token.key());
                        sources.add(source[0]);
                    }
                }
                keysTaken.addAll(keysHere);
            }
            // strict=true asks that nothing be left out: an entry that would be is a bad option.
            if (strictRequested && !built.leftOut.isEmpty()) {
                throw new AgentOptionsException(built.leftOut.first());
            }
            return new AgentOptions(built, sources, null, Boolean.TRUE.equals(built.quiet));
        } catch (AgentOptionsException bad) {
            throw new AgentOptionsException(bad.getMessage(), strictRequested);
        }
    }

    /**
     * Whether a boolean option is true as the merged options will say, before they are judged: the strongest source
     * that gives the key gives its value.
     */
    private static boolean requested(String[][] bySource, String key) {
        for (String[] source : bySource) {
            boolean given = false;
            boolean requested = false;
            for (OptionToken token : OptionToken.split(source[1], source[0])) {
                if (key.equals(token.key())) {
                    given = true;
                    requested |= token.value().equals("true");
                }
            }
            if (given) {
                return requested;
            }
        }
        return false;
    }

    private static void judge(Iterable<OptionToken> tokens) {
        Builder builder = new Builder();
        for (OptionToken token : tokens) {
            builder.accept(token);
        }
    }

    static long parseTickNanos(OptionToken token) {
        String value = token.value();
        String valid = "; tick takes a whole number with a unit ns, us, ms or s, from 1ms to 1s (for example tick=1ms)";
        int unitStart = 0;
        while (unitStart < value.length() && Character.isDigit(value.charAt(unitStart))) {
            unitStart++;
        }
        if (unitStart == 0) {
            throw new AgentOptionsException("bad duration " + token.quoted() + valid);
        }
        long unitNanos;
        switch (value.substring(unitStart)) {
            case "ns":
                unitNanos = 1L;
                break;
            case "us":
                unitNanos = 1_000L;
                break;
            case "ms":
                unitNanos = 1_000_000L;
                break;
            case "s":
                unitNanos = 1_000_000_000L;
                break;
            default:
                throw new AgentOptionsException("bad duration " + token.quoted() + valid);
        }
        String digits = value.substring(0, unitStart);
        // More than ten digits is out of range in every unit; the length check keeps parseLong clear of overflow.
        long amount = digits.length() > 10 ? Long.MAX_VALUE : Long.parseLong(digits);
        if (amount > MAX_TICK_NANOS / unitNanos || amount * unitNanos < MIN_TICK_NANOS) {
            throw new AgentOptionsException("tick out of range in " + token.quoted() + valid);
        }
        return amount * unitNanos;
    }

    /**
     * The source whose {@code enabled=false} turned the agent off, as a bad option names it ({@code agent arguments},
     * {@code system property clockagent.options} or {@code CLOCK_AGENT_OPTIONS}), the strongest where several say
     * so; null while the agent is on. An agent turned off does nothing but say so ({@link #turnedOffLine}).
     */
    public String turnedOffBy() {
        return turnedOffBy;
    }

    /** The one line, after the agent's prefix, that says {@code enabled=false} from {@code source} turned it off. */
    public static String turnedOffLine(String source) {
        return "off (" + ENABLED + "=false from " + source + "); the service runs without it";
    }

    public PackageSelection packages() {
        return packages;
    }

    public LibraryClockPolicy libraryClocks() {
        return libraryClocks;
    }

    /** The lines, after the agent's prefix, that say which {@code clocks} entries were left out and why. */
    public List<String> warnings() {
        return warnings;
    }

    public long tickNanos() {
        return tickNanos;
    }

    public WaitStrategy waitStrategy() {
        return waitStrategy;
    }

    public CachePolicy cachePolicy() {
        return cachePolicy == null ? CachePolicy.AUTO : cachePolicy;
    }

    public boolean monotonic() {
        return monotonic;
    }

    public boolean verbose() {
        return verbose;
    }

    /**
     * Whether {@code quiet=true} asks for no line but those that say the agent is off or runs without its ticker for
     * a fault (a bad option, an unsupported Java, a clock it could not define) and those another option asks for
     * ({@code verbose}, {@code report=summary}, {@code nativeFilter=true}): no banner, no line for {@code clocks}
     * entries left out, a copy already active, a library clock loaded after all, a class left unchanged or
     * {@code enabled=false}. Known even where {@code enabled=false} turned the agent off.
     */
    public boolean quiet() {
        return quiet;
    }

    public boolean strict() {
        return strict;
    }

    /** Whether to print a summary at exit. */
    public boolean reportSummary() {
        return SUMMARY.equals(report);
    }

    /** The file to write the JSON report to at exit, or null. */
    public String reportFile() {
        return report == null || SUMMARY.equals(report) ? null : report;
    }

    public boolean dryRun() {
        return dryRun;
    }

    /**
     * Whether the rewriter counts call sites method by method: only when something will show the counts (verbose
     * lines, a report, a dry run), as counting decodes every instruction of every rewritten class.
     */
    public boolean countsSites() {
        return verbose || dryRun || report != null;
    }

    public boolean jmx() {
        return jmx;
    }

    /** Whether the native start, with its C hook, may serve where the jar carries the library for the platform. */
    public boolean nativeFilter() {
        return !Boolean.FALSE.equals(nativeFilter);
    }

    /**
     * Whether {@code nativeFilter=true} was given: then a filter that cannot start says why on stderr. By default it
     * falls back in silence, as the banner is the only line the agent prints by default; the MBean's
     * {@code ClassFilter} says which filter serves and why.
     */
    public boolean nativeFilterRequested() {
        return Boolean.TRUE.equals(nativeFilter);
    }

    /** The options as the banner shows them, in the same {@code key=value} form a user writes. */
    public String describe() {
        return "tick=" + tickText + " wait=" + waitStrategy.optionValue()
                + (cachePolicy == null ? "" : " cache=" + cachePolicy.optionValue())
                + (libraryClocks == LibraryClockPolicy.RETIRE ? "" : " libraryClocks=" + libraryClocks.optionValue())
                + (monotonic ? " monotonic=true" : "")
                + (dryRun ? " dryRun=true" : "") + (nativeFilter == null ? "" : " nativeFilter=" + nativeFilter) + " "
                + packages.describe()
                + (sources.isEmpty() || sources.equals(Set.of(AGENT_ARGUMENTS)) ? ""
                        : " (options from " + String.join(", ", sources) + ")");
    }

    /** Collects the values of one merged option list, refusing repeats of keys that take one value. */
    private static final class Builder {
        final List<String> includes = new ArrayList<>();
        final List<String> excludes = new ArrayList<>();
        final List<String> cachedInstants = new ArrayList<>();
        final List<String> clocks = new ArrayList<>();
        final LeftOutEntries leftOut = new LeftOutEntries();
        LibraryClockPolicy libraryClocks;
        Long tickNanos;
        String tickText;
        WaitStrategy waitStrategy;
        CachePolicy cachePolicy;
        Boolean monotonic;
        Boolean verbose;
        Boolean quiet;
        Boolean strict;
        String report;
        Boolean dryRun;
        Boolean jmx;
        Boolean nativeFilter;
        Boolean enabled;

        void accept(OptionToken token) {
            if (token.key() == null) {
                throw new AgentOptionsException(token.text().isBlank() || token.text().contains(",")
                        ? "empty option in " + token.quoted()
                                + "; options are key=value pairs separated by single commas"
                        : token.quoted() + " is not key=value; valid keys: " + VALID_KEYS);
            }
            switch (token.key()) {
                case "include":
                    includes.addAll(PackageNames.parse(token));
                    break;
                case "exclude":
                    excludes.addAll(PackageNames.parse(token));
                    break;
                case "cachedInstants":
                    cachedInstants.addAll(PackageNames.parse(token));
                    break;
                case "clocks":
                    ClockNames.parse(token, clocks, leftOut);
                    break;
                case "libraryClocks":
                    requireOnce(token, libraryClocks);
                    libraryClocks = token.oneOf(LibraryClockPolicy.values());
                    break;
                case "tick":
                    requireOnce(token, tickNanos);
                    tickNanos = parseTickNanos(token);
                    tickText = token.value();
                    break;
                case "wait":
                    requireOnce(token, waitStrategy);
                    waitStrategy = token.oneOf(WaitStrategy.values());
                    break;
                case "cache":
                    requireOnce(token, cachePolicy);
                    cachePolicy = token.oneOf(CachePolicy.values());
                    break;
                case "monotonic":
                    requireOnce(token, monotonic);
                    monotonic = token.booleanValue();
                    break;
                case "verbose":
                    requireOnce(token, verbose);
                    verbose = token.booleanValue();
                    break;
                case QUIET:
                    requireOnce(token, quiet);
                    quiet = token.booleanValue();
                    break;
                case "strict":
                    requireOnce(token, strict);
                    strict = token.booleanValue();
                    break;
                case "report":
                    requireOnce(token, report);
                    if (token.value().isEmpty()) {
                        throw new AgentOptionsException("empty value in " + token.quoted()
                                + "; valid values: summary, or the path of a JSON file to write at exit");
                    }
                    report = token.value();
                    break;
                case "dryRun":
                    requireOnce(token, dryRun);
                    dryRun = token.booleanValue();
                    break;
                case "jmx":
                    requireOnce(token, jmx);
                    jmx = token.booleanValue();
                    break;
                case "nativeFilter":
                    requireOnce(token, nativeFilter);
                    nativeFilter = token.booleanValue();
                    break;
                case ENABLED:
                    // Only true comes here, which is the default, or a bad value: false turned the agent off before.
                    requireOnce(token, enabled);
                    enabled = token.booleanValue();
                    break;
                default:
                    throw new AgentOptionsException("unknown option '" + OptionToken.excerpt(token.key()) + "' in "
                            + token.quoted() + "; valid keys: " + VALID_KEYS);
            }
        }

        private static void requireOnce(OptionToken token, Object earlier) {
            if (earlier != null) {
                throw new AgentOptionsException(token.quoted() + " repeats an option that may be given only once"
                        + " (only include, exclude, cachedInstants and clocks repeat)");
            }
        }
    }
}
