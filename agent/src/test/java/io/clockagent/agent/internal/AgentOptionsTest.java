package io.clockagent.agent.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AgentOptionsTest {

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
        "verbose=true,strict=false                  | tick=1ms wait=park include=(all non-JDK classes) exclude=(none)",
    })
    void validOptionsParse(String text, String described) {
        assertEquals(described, AgentOptions.parse(text).describe());
    }

    @ParameterizedTest(name = "''{0}'' is refused, naming ''{1}''")
    @CsvSource(delimiter = '|', value = {
        "colour=blue                | 'colour'     | valid keys: include, exclude, tick",
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
        "verbose=yes                | 'verbose=yes' | valid values: true, false",
        "wait=sleep                 | 'wait=sleep' | valid values: park, spin",
        "include=com.acme,,tick=1ms | empty option | separated by single commas",
        "include=com.acme,          | empty option | separated by single commas",
    })
    void badOptionsAreRefusedWithTheTokenAndTheValidForms(String text, String token, String validForms) {
        AgentOptionsException refused = assertThrows(AgentOptionsException.class, () -> AgentOptions.parse(text));

        assertTrue(refused.getMessage().contains(token), refused.getMessage());
        assertTrue(refused.getMessage().contains(validForms), refused.getMessage());
        assertFalse(refused.getMessage().contains("\n"), "one line");
    }

    @Test
    void defaultsAreAOneMillisecondParkingTickerOverAllClasses() {
        AgentOptions defaults = AgentOptions.defaults();

        assertEquals(AgentOptions.DEFAULT_TICK_NANOS, defaults.tickNanos());
        assertEquals(WaitStrategy.PARK, defaults.waitStrategy());
        assertFalse(defaults.verbose());
        assertFalse(defaults.strict());
        assertFalse(defaults.monotonic());
        assertTrue(defaults.packages().covers("com/acme/Service"));
    }

    @ParameterizedTest(name = "''{0}'' requests strict: {1}")
    @CsvSource(delimiter = '|', value = {
        "strict=true                | true",
        "tick=bad, strict=true      | true",
        " strict = true             | true",
        "STRICT=TRUE                | false",
        "strict=false               | false",
        "strict=yes                 | false",
        "tick=1ms                   | false",
    })
    void strictIsRecognisedEvenWhenOtherOptionsAreBad(String text, boolean strict) {
        assertEquals(strict, AgentOptions.requestsStrict(text));
    }
}
