package io.clockagent.it.support;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict JSON reader (RFC 8259) for checking what the agent writes: the whole text must be one value, with nothing
 * but whitespace around it. Objects become {@link Map}s in document order (a repeated name is an error), arrays
 * {@link List}s, numbers {@link BigDecimal}s, and {@code true}, {@code false} and {@code null} themselves. Each parse
 * is single-threaded and stateless between calls.
 */
public final class Json {

    private final String text;
    private int position;

    private Json(String text) {
        this.text = text;
    }

    /** @throws IllegalArgumentException naming the offset and what was expected there */
    public static Object parse(String text) {
        Json reader = new Json(text);
        Object value = reader.value();
        reader.skipWhitespace();
        if (reader.position != text.length()) {
            throw reader.error("end of text");
        }
        return value;
    }

    private Object value() {
        skipWhitespace();
        if (position == text.length()) {
            throw error("a value");
        }
        char first = text.charAt(position);
        switch (first) {
            case '{':
                return object();
            case '[':
                return array();
            case '"':
                return string();
            case 't':
                return literal("true", Boolean.TRUE);
            case 'f':
                return literal("false", Boolean.FALSE);
            case 'n':
                return literal("null", null);
            default:
                if (first == '-' || isDigit(first)) {
                    return number();
                }
                throw error("a value");
        }
    }

    private Map<String, Object> object() {
        Map<String, Object> members = new LinkedHashMap<>();
        position++;
        skipWhitespace();
        if (consume('}')) {
            return members;
        }
        do {
            skipWhitespace();
            if (position == text.length() || text.charAt(position) != '"') {
                throw error("a member name in double quotes");
            }
            String name = string();
            skipWhitespace();
            expect(':');
            if (members.containsKey(name)) {
                throw error("no second member named '" + name + "'");
            }
            members.put(name, value());
            skipWhitespace();
        } while (consume(','));
        expect('}');
        return members;
    }

    private List<Object> array() {
        List<Object> elements = new ArrayList<>();
        position++;
        skipWhitespace();
        if (consume(']')) {
            return elements;
        }
        do {
            elements.add(value());
            skipWhitespace();
        } while (consume(','));
        expect(']');
        return elements;
    }

    private String string() {
        StringBuilder decoded = new StringBuilder();
        position++;
        while (true) {
            if (position == text.length()) {
                throw error("a closing double quote");
            }
            char c = text.charAt(position++);
            if (c == '"') {
                return decoded.toString();
            }
            if (c < 0x20) {
                throw error("no raw control character in a string");
            }
            if (c != '\\') {
                decoded.append(c);
                continue;
            }
            if (position == text.length()) {
                throw error("an escape");
            }
            char escape = text.charAt(position++);
            switch (escape) {
                case '"':
                case '\\':
                case '/':
                    decoded.append(escape);
                    break;
                case 'b':
                    decoded.append('\b');
                    break;
                case 'f':
                    decoded.append('\f');
                    break;
                case 'n':
                    decoded.append('\n');
                    break;
                case 'r':
                    decoded.append('\r');
                    break;
                case 't':
                    decoded.append('\t');
                    break;
                case 'u':
                    decoded.append(hexCodeUnit());
                    break;
                default:
                    position--;
                    throw error("one of the escapes \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX");
            }
        }
    }

    private char hexCodeUnit() {
        if (position + 4 > text.length()) {
            throw error("four hex digits");
        }
        int unit = 0;
        for (int i = 0; i < 4; i++) {
            int digit = Character.digit(text.charAt(position), 16);
            if (digit < 0) {
                throw error("a hex digit");
            }
            unit = unit * 16 + digit;
            position++;
        }
        return (char) unit;
    }

    private BigDecimal number() {
        int start = position;
        consume('-');
        if (consume('0')) {
            if (position < text.length() && isDigit(text.charAt(position))) {
                throw error("no leading zero");
            }
        } else {
            digits();
        }
        if (consume('.')) {
            digits();
        }
        if (consume('e') || consume('E')) {
            if (!consume('+')) {
                consume('-');
            }
            digits();
        }
        return new BigDecimal(text.substring(start, position));
    }

    private void digits() {
        int start = position;
        while (position < text.length() && isDigit(text.charAt(position))) {
            position++;
        }
        if (position == start) {
            throw error("a digit");
        }
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, position)) {
            throw error("'" + word + "'");
        }
        position += word.length();
        return value;
    }

    private void skipWhitespace() {
        while (position < text.length() && " \t\n\r".indexOf(text.charAt(position)) >= 0) {
            position++;
        }
    }

    private boolean consume(char expected) {
        if (position < text.length() && text.charAt(position) == expected) {
            position++;
            return true;
        }
        return false;
    }

    private void expect(char expected) {
        if (!consume(expected)) {
            throw error("'" + expected + "'");
        }
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private IllegalArgumentException error(String expected) {
        int from = Math.max(0, position - 20);
        int to = Math.min(text.length(), position + 20);
        return new IllegalArgumentException("not JSON: expected " + expected + " at offset " + position + ", near '"
                + text.substring(from, to) + "'");
    }
}
