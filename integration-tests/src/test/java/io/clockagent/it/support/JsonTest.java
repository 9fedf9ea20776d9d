package io.clockagent.it.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The JSON reader that checks the agent's report files: it must accept what RFC 8259 allows and nothing else. */
class JsonTest {

    @Test
    void readsEveryKindOfValueKeepingTheOrderOfMembers() {
        Object parsed = Json.parse(" {\"b\": [1, -2.5e3, 0], \"a\": {\"t\": true, \"f\": false, \"n\": null},"
                + " \"s\": \"q\\\" \\\\ \\/ \\n \\u00e9\"} ");

        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("t", Boolean.TRUE);
        inner.put("f", Boolean.FALSE);
        inner.put("n", null);
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("b", List.of(new BigDecimal("1"), new BigDecimal("-2.5e3"), new BigDecimal("0")));
        expected.put("a", inner);
        expected.put("s", "q\" \\ / \n \u00e9");
        assertEquals(expected, parsed);
        assertEquals(List.of("b", "a", "s"), List.copyOf(((Map<?, ?>) parsed).keySet()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "{", "{\"a\" 1}", "{\"a\": 1,}", "[1,]", "[1 2]", "01", "1.", "-", "+1", ".5",
        "\"raw\ttab\"", "\"\\x\"", "\"\\u12\"", "\"open", "tru", "nul", "{\"a\": 1, \"a\": 2}", "{} {}", "{a: 1}",
        "'single'"})
    void refusesWhatIsNotJson(String text) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> Json.parse(text),
                () -> "accepted " + Arrays.toString(text.toCharArray()));
        assertTrue(refused.getMessage().startsWith("not JSON: expected "), refused.getMessage());
    }
}
