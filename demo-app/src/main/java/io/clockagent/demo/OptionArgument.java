package io.clockagent.demo;

/**
 * One {@code --key value} pair of a command line, as the demo and its comparison runner read theirs: the pair, the
 * value forms they share, and their refusals, each quoting the offending argument. Immutable.
 */
public final class OptionArgument {

    private final String key;
    private final String value;

    private OptionArgument(String key, String value) {
        this.key = key;
        this.value = value;
    }

    public String key() {
        return key;
    }

    public String value() {
        return value;
    }

    /**
     * The pair whose key is {@code args[index]}.
     *
     * @throws IllegalArgumentException when that key is the last argument, followed by {@code usage}
     */
    public static OptionArgument at(String[] args, int index, String usage) {
        if (index + 1 >= args.length) {
            throw new IllegalArgumentException("'" + args[index] + "' needs a value; " + usage);
        }
        return new OptionArgument(args[index], args[index + 1]);
    }

    /**
     * The value as a whole number from {@code min} to {@code max}; underscores, as in {@code 60_000}, are allowed.
     *
     * @throws IllegalArgumentException stating the valid range
     */
    public int count(int min, int max) {
        try {
            int count = Integer.parseInt(value.replace("_", ""));
            if (count >= min && count <= max) {
                return count;
            }
        } catch (NumberFormatException notANumber) {
            // Reported below with the valid range.
        }
        throw badValue("expected a whole number from " + min + " to " + max);
    }

    /** The refusal of this value, followed by what was expected instead. */
    public IllegalArgumentException badValue(String expected) {
        return new IllegalArgumentException("bad value in '" + key + " " + value + "'; " + expected);
    }

    /** The refusal of this key, followed by {@code usage}. */
    public IllegalArgumentException unknown(String usage) {
        return new IllegalArgumentException("unknown option '" + key + "'; " + usage);
    }
}
