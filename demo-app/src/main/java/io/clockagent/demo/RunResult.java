package io.clockagent.demo;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one machine-readable line a demo run prints on stdout, {@code result key=value key=value ...}, which the
 * comparison runner parses; values hold no spaces. Immutable once built.
 */
public final class RunResult {

    public static final String PREFIX = "result ";
    public static final String NOT_AVAILABLE = "n/a";

    private final Map<String, String> values;

    private RunResult(Map<String, String> values) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** Collects values in insertion order; used by one thread. */
    public static final class Builder {
        private final Map<String, String> values = new LinkedHashMap<>();

        public Builder put(String key, Object value) {
            String text = String.valueOf(value);
            if (key.isEmpty() || key.contains(" ") || key.contains("=")) {
                throw new IllegalArgumentException("bad key '" + key + "'");
            }
            values.put(key, text.isEmpty() ? NOT_AVAILABLE : text.replace(' ', '_'));
            return this;
        }

        public RunResult build() {
            return new RunResult(values);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Parses a line written by {@link #format()}.
     *
     * @throws IllegalArgumentException quoting the line if it is not one
     */
    public static RunResult parse(String line) {
        if (!line.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a result line (no '" + PREFIX.trim() + "' prefix): '" + line + "'");
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (String pair : line.substring(PREFIX.length()).trim().split(" +")) {
            int equals = pair.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException("'" + pair + "' is not key=value in '" + line + "'");
            }
            values.put(pair.substring(0, equals), pair.substring(equals + 1));
        }
        return new RunResult(values);
    }

    public String format() {
        StringBuilder line = new StringBuilder(PREFIX.trim());
        values.forEach((key, value) -> line.append(' ').append(key).append('=').append(value));
        return line.toString();
    }

    /** The value, or {@link #NOT_AVAILABLE} if the run did not report the key. */
    public String text(String key) {
        return values.getOrDefault(key, NOT_AVAILABLE);
    }

    /** The value as a number, or NaN if it is missing or not a number. */
    public double number(String key) {
        try {
            return Double.parseDouble(text(key));
        } catch (NumberFormatException notANumber) {
            return Double.NaN;
        }
    }

    public Map<String, String> values() {
        return values;
    }
}
