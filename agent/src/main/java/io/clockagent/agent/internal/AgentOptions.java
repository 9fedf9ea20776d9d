package io.clockagent.agent.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * The agent's settings, parsed once from the {@code -javaagent:clock-agent.jar=OPTIONS} string; immutable and
 * safe to share between threads.
 */
public final class AgentOptions {

    public static final long DEFAULT_TICK_NANOS = 1_000_000L;
    public static final long MIN_TICK_NANOS = 1_000_000L;
    public static final long MAX_TICK_NANOS = 1_000_000_000L;

    static final String VALID_KEYS = "include, exclude, tick, wait, monotonic, verbose, strict";

    private final PackageFilter packages;
    private final long tickNanos;
    private final String tickText;
    private final WaitStrategy waitStrategy;
    private final boolean monotonic;
    private final boolean verbose;
    private final boolean strict;

    private AgentOptions(PackageFilter packages, long tickNanos, String tickText, WaitStrategy waitStrategy,
            boolean monotonic, boolean verbose, boolean strict) {
        this.packages = packages;
        this.tickNanos = tickNanos;
        this.tickText = tickText;
        this.waitStrategy = waitStrategy;
        this.monotonic = monotonic;
        this.verbose = verbose;
        this.strict = strict;
    }

    public static AgentOptions defaults() {
        return parse("");
    }

    /**
     * Parses {@code key=value} pairs separated by commas.
     *
     * @throws AgentOptionsException naming the offending token and the valid forms
     */
    public static AgentOptions parse(String text) {
        List<String> includes = new ArrayList<>();
        List<String> excludes = new ArrayList<>();
        Long tickNanos = null;
        String tickText = "1ms";
        WaitStrategy waitStrategy = null;
        Boolean monotonic = null;
        Boolean verbose = null;
        Boolean strict = null;
        if (text != null && !text.isBlank()) {
            for (String token : text.split(",", -1)) {
                int equals = token.indexOf('=');
                if (token.isBlank()) {
                    throw new AgentOptionsException("empty option in '" + text
                            + "'; options are key=value pairs separated by single commas");
                }
                if (equals <= 0) {
                    throw new AgentOptionsException("'" + token + "' is not key=value; valid keys: " + VALID_KEYS);
                }
                String key = token.substring(0, equals).trim();
                String value = token.substring(equals + 1).trim();
                switch (key) {
                    case "include":
                        includes.addAll(PackageFilter.parsePackages(token, value));
                        break;
                    case "exclude":
                        excludes.addAll(PackageFilter.parsePackages(token, value));
                        break;
                    case "tick":
                        requireOnce(token, tickNanos);
                        tickNanos = parseTickNanos(token, value);
                        tickText = value;
                        break;
                    case "wait":
                        requireOnce(token, waitStrategy);
                        waitStrategy = WaitStrategy.parse(token, value);
                        break;
                    case "monotonic":
                        requireOnce(token, monotonic);
                        monotonic = parseBoolean(token, value);
                        break;
                    case "verbose":
                        requireOnce(token, verbose);
                        verbose = parseBoolean(token, value);
                        break;
                    case "strict":
                        requireOnce(token, strict);
                        strict = parseBoolean(token, value);
                        break;
                    default:
                        throw new AgentOptionsException("unknown option '" + key + "' in '" + token
                                + "'; valid keys: " + VALID_KEYS);
                }
            }
        }
        return new AgentOptions(new PackageFilter(includes, excludes),
                tickNanos == null ? DEFAULT_TICK_NANOS : tickNanos, tickText,
                waitStrategy == null ? WaitStrategy.PARK : waitStrategy,
                Boolean.TRUE.equals(monotonic), Boolean.TRUE.equals(verbose), Boolean.TRUE.equals(strict));
    }

    /**
     * Whether the text asks for strict handling, judged without parsing the rest, so that a bad option elsewhere
     * still stops the JVM when {@code strict=true} is among the options.
     */
    public static boolean requestsStrict(String text) {
        if (text == null) {
            return false;
        }
        for (String token : text.split(",", -1)) {
            int equals = token.indexOf('=');
            if (equals > 0 && token.substring(0, equals).trim().equals("strict")
                    && token.substring(equals + 1).trim().equals("true")) {
                return true;
            }
        }
        return false;
    }

    private static void requireOnce(String token, Object earlier) {
        if (earlier != null) {
            throw new AgentOptionsException("'" + token + "' repeats an option that may be given only once"
                    + " (only include and exclude repeat)");
        }
    }

    static long parseTickNanos(String token, String value) {
        String valid = "; tick takes a whole number with a unit ns, us, ms or s, from 1ms to 1s (for example tick=1ms)";
        int unitStart = 0;
        while (unitStart < value.length() && Character.isDigit(value.charAt(unitStart))) {
            unitStart++;
        }
        if (unitStart == 0) {
            throw new AgentOptionsException("bad duration '" + token + "'" + valid);
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
                throw new AgentOptionsException("bad duration '" + token + "'" + valid);
        }
        String digits = value.substring(0, unitStart);
        // More than ten digits is out of range in every unit; the length check keeps parseLong clear of overflow.
        long amount = digits.length() > 10 ? Long.MAX_VALUE : Long.parseLong(digits);
        if (amount > MAX_TICK_NANOS / unitNanos || amount * unitNanos < MIN_TICK_NANOS) {
            throw new AgentOptionsException("tick out of range in '" + token + "'" + valid);
        }
        return amount * unitNanos;
    }

    private static boolean parseBoolean(String token, String value) {
        if (value.equals("true")) {
            return true;
        }
        if (value.equals("false")) {
            return false;
        }
        throw new AgentOptionsException("bad value in '" + token + "'; valid values: true, false");
    }

    public PackageFilter packages() {
        return packages;
    }

    public long tickNanos() {
        return tickNanos;
    }

    public WaitStrategy waitStrategy() {
        return waitStrategy;
    }

    public boolean monotonic() {
        return monotonic;
    }

    public boolean verbose() {
        return verbose;
    }

    public boolean strict() {
        return strict;
    }

    /** The options as the banner shows them, in the same {@code key=value} form a user writes. */
    public String describe() {
        return "tick=" + tickText + " wait=" + waitStrategy.optionValue() + (monotonic ? " monotonic=true" : "")
                + " " + packages.describe();
    }
}
