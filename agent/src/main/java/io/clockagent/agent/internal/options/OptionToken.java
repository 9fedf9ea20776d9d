package io.clockagent.agent.internal.options;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One {@code key=value} token of an option string, with the source it came from so that errors can name both.
 * Immutable.
 */
final class OptionToken {

    private final String key;
    private final String value;
    private final String text;
    private final String source;

    /**
     * @param key the key, trimmed; null when the token is empty or has no {@code =} after a key
     * @param value the value, trimmed
     * @param text the token as written
     * @param source where it came from, such as {@code CLOCK_AGENT_OPTIONS}
     */
    private OptionToken(String key, String value, String text, String source) {
        this.key = key;
        this.value = value;
        this.text = text;
        this.source = source;
    }

    /** Splits on commas; malformed tokens are kept, without a key, so that the builder refuses them by their text. */
    static List<OptionToken> split(String options, String source) {
        List<OptionToken> tokens = new ArrayList<>();
        if (options == null || options.isBlank()) {
            return tokens;
        }
        for (String text : options.split(",", -1)) {
            int equals = text.indexOf('=');
            if (text.isBlank()) {
                tokens.add(new OptionToken(null, "", options, source));
            } else if (equals <= 0) {
                tokens.add(new OptionToken(null, "", text, source));
            } else {
                tokens.add(new OptionToken(text.substring(0, equals).trim(), text.substring(equals + 1).trim(), text,
                        source));
            }
        }
        return tokens;
    }

    String key() {
        return key;
    }

    String value() {
        return value;
    }

    String text() {
        return text;
    }

    /** The token in quotes, followed by its source unless it is the {@code -javaagent} string. */
    String quoted() {
        return "'" + text + "'" + (source.equals(AgentOptions.AGENT_ARGUMENTS) ? "" : " (from " + source + ")");
    }

    boolean booleanValue() {
        if (value.equals("true")) {
            return true;
        }
        if (value.equals("false")) {
            return false;
        }
        throw new AgentOptionsException("bad value in " + quoted() + "; valid values: true, false");
    }

    /** The value as one of an enum's constants, which options spell as the constant's name in lower case. */
    <T extends Enum<T>> T oneOf(T[] choices) {
        StringBuilder valid = new StringBuilder();
        for (T choice : choices) {
            String spelling = choice.name().toLowerCase(Locale.ROOT);
            if (spelling.equals(value)) {
                return choice;
            }
            valid.append(valid.length() == 0 ? "" : ", ").append(spelling);
        }
        throw new AgentOptionsException("bad value in " + quoted() + "; valid values: " + valid);
    }
}
