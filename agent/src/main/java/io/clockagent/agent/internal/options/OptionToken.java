package io.clockagent.agent.internal.options;

import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;

/**
 * One {@code key=value} token of an option string, with the source it came from so that errors can name both.
 * Immutable.
 */
final class OptionToken {

    /** The most UTF-16 code units of an option's text that an error line quotes; of a longer text, the first ones. */
    static final int QUOTED_MOST = 64;

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

    /**
     * Splits on commas, one token at a time as they are asked for, so that no more than one token of a long text is
     * held at once; malformed tokens are kept, without a key, so that the builder refuses them by their text.
     */
    static Iterable<OptionToken> split(String options, String source) {
        if (options == null || options.isBlank()) {
            return List.of();
        }
        return () -> new Iterator<>() {
            private int start;

            @Override
            public boolean hasNext() {
                return start <= options.length();
            }

            @Override
            public OptionToken next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                int comma = options.indexOf(',', start);
                int end = comma < 0 ? options.length() : comma;
                String text = options.substring(start, end);
                start = end + 1;
                int equals = text.indexOf('=');
                if (text.isBlank()) {
                    return new OptionToken(null, "", options, source);
                }
                if (equals <= 0) {
                    return new OptionToken(null, "", text, source);
                }
                return new OptionToken(text.substring(0, equals).trim(), text.substring(equals + 1).trim(), text,
                        source);
            }
        };
    }

    /**
     * The text as an error line quotes it: whole up to {@link #QUOTED_MOST} code units; of a longer one its first
     * ones, a surrogate pair kept whole, and its length, so that a line stays short whatever the option's length.
     */
    static String excerpt(String text) {
        if (text.length() <= QUOTED_MOST) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(QUOTED_MOST - 1)) ? QUOTED_MOST - 1 : QUOTED_MOST;
        return text.substring(0, end) + "... (" + text.length() + " characters)";
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
        String from = source.equals(AgentOptions.AGENT_ARGUMENTS) ? "" : " (from " + source + ")";
        return "'" + excerpt(text) + "'" + from;
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
