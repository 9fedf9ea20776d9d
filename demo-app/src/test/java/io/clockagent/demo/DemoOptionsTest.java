package io.clockagent.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DemoOptionsTest {

    @Test
    void defaultsAreABoundedRunWithABurst() {
        DemoOptions defaults = DemoOptions.parse();

        assertEquals(60_000, defaults.requests());
        assertEquals(20_000, defaults.warmup());
        assertEquals(8, defaults.connections());
        assertEquals(42, defaults.seed());
        assertEquals(100_000, defaults.burst());
        assertEquals(60, defaults.maxSeconds());
        assertNull(defaults.accessLog());
    }

    @Test
    void everyOptionIsRead() {
        DemoOptions options = DemoOptions.parse("--requests", "1_000", "--warmup", "0", "--connections", "2",
                "--clients", "3", "--sessions", "4", "--seed", "-7", "--burst", "0", "--max-seconds", "5",
                "--access-log", "a.log");

        assertEquals(1_000, options.requests());
        assertEquals(0, options.warmup());
        assertEquals(2, options.connections());
        assertEquals(3, options.clients());
        assertEquals(4, options.sessions());
        assertEquals(-7, options.seed());
        assertEquals(0, options.burst());
        assertEquals(5, options.maxSeconds());
        assertEquals(Path.of("a.log"), options.accessLog());
    }

    @ParameterizedTest(name = "''{0}'' is refused, naming ''{1}''")
    @CsvSource(delimiter = '|', value = {
        "--requests 0          | '--requests 0'       | from 1 to",
        "--requests many       | '--requests many'    | whole number",
        "--connections 1001    | '--connections 1001' | from 1 to 1000",
        "--seed 1.5            | '--seed 1.5'         | whole number",
        "--burst -1            | '--burst -1'         | from 0 to",
        "--verbose true        | '--verbose'          | --requests N",
        "--requests            | '--requests'         | needs a value",
        "--connections 1000 --sessions 1000 | at most | --connections times --sessions",
    })
    void badArgumentsAreRefusedWithTheArgumentAndTheValidForms(String args, String token, String validForms) {
        IllegalArgumentException refused =
                assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse(args.split(" ")));

        assertTrue(refused.getMessage().contains(token), refused.getMessage());
        assertTrue(refused.getMessage().contains(validForms), refused.getMessage());
    }
}
