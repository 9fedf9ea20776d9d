package io.clockagent.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.clockagent.agent.internal.options.AgentOptions;
import io.clockagent.agent.internal.options.AgentOptionsException;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ClockAgentTest {

    @ParameterizedTest(name = "java.specification.version ''{0}'' is refused: {1}")
    @CsvSource(delimiter = '|', value = {
        "1.6  | Java 6 is not supported (11 or later is)",
        "1.7  | Java 7 is not supported (11 or later is)",
        "1.8  | Java 8 is not supported (11 or later is)",
        "9    | Java 9 is not supported (11 or later is)",
        "10   | Java 10 is not supported (11 or later is)",
        "''   | cannot tell which Java this is (java.specification.version ''; 11 or later is supported)",
        "ten  | cannot tell which Java this is (java.specification.version 'ten'; 11 or later is supported)",
        "1.   | cannot tell which Java this is (java.specification.version '1.'; 11 or later is supported)",
        "11.0 | cannot tell which Java this is (java.specification.version '11.0'; 11 or later is supported)",
        "99999999999 | cannot tell which Java this is (java.specification.version '99999999999'; 11 or later is supported)",
    })
    void releasesBelowTheFloorOrUnreadableAreRefused(String specificationVersion, String refusal) {
        assertEquals(refusal, ClockAgent.refusal(specificationVersion));
    }

    @Test
    void anUnsetVersionIsRefused() {
        assertEquals("cannot tell which Java this is (java.specification.version 'null'; 11 or later is supported)",
                ClockAgent.refusal(null));
    }

    @ParameterizedTest(name = "java.specification.version ''{0}'' is admitted")
    @ValueSource(strings = {"11", "17", "21", "25", "26"})
    void releasesFromTheFloorUpAreAdmitted(String specificationVersion) {
        assertNull(ClockAgent.refusal(specificationVersion));
    }

    @ParameterizedTest(name = "strict from [{0}] [{1}] [{2}] is {3}")
    @CsvSource(delimiter = '|', nullValues = "NONE", value = {
        "strict=true              | NONE        | NONE         | true",
        "tick=1ms, strict = true  | NONE        | NONE         | true",
        "strict=false             | strict=true | strict=true  | false",
        "tick=1ms                 | strict=true | strict=false | true",
        "NONE                     | NONE        | strict=true  | true",
        "NONE                     | tick=2ms    | strict=yes   | false",
        "''                       | ''          | ''           | false",
        "strictly=true,xstrict=true | NONE      | NONE         | false",
        "NONE                     | NONE        | NONE         | false",
    })
    void theStrongestSourceThatSetsStrictDecides(String agentArguments, String property, String variable,
            boolean strict) {
        assertEquals(strict, ClockAgent.strictRequested(agentArguments, property, variable));
    }

    /** The entry's look at enabled=false, before anything loads, must see what the full options see. */
    @ParameterizedTest(name = "enabled from [{0}] [{1}] [{2}]: off by {3}")
    @CsvSource(delimiter = '|', nullValues = "NONE", value = {
        "enabled=false                  | NONE          | NONE          | agent arguments",
        "include=com.acme, enabled = false | NONE       | NONE          | agent arguments",
        "enabled=true,include=com.acme  | NONE          | enabled=false | CLOCK_AGENT_OPTIONS",
        "include=com.acme               | enabled=false | NONE          | system property clockagent.options",
        "enabled=false                  | enabled=false | enabled=false | agent arguments",
        "strict=true,colour=blue        | NONE          | enabled=false | CLOCK_AGENT_OPTIONS",
        "enabled=true,enabled=false     | NONE          | NONE          | agent arguments",
        "enabled=true                   | enabled=true  | enabled=true  | NONE",
        "ENABLED=false                  | enabled=no    | enabled       | NONE",
        "NONE                           | NONE          | NONE          | NONE",
    })
    void theEntrySeesEnabledFalseAsTheFullOptionsDo(String agentArguments, String property, String variable,
            String turnedOffBy) {
        assertEquals(turnedOffBy, ClockAgent.turnedOffBy(agentArguments, property, variable));
        String fullOptionsSay;
        try {
            fullOptionsSay = AgentOptions.fromSources(agentArguments, property, variable).turnedOffBy();
        } catch (AgentOptionsException bad) {
            fullOptionsSay = null;
        }
        assertEquals(turnedOffBy, fullOptionsSay);
        if (turnedOffBy != null) {
            assertEquals(AgentOptions.turnedOffLine(turnedOffBy), ClockAgent.turnedOffLine(turnedOffBy));
        }
    }

    @Test
    void readsTheSameOptionSourcesAsTheFullOptions() {
        assertEquals(AgentOptions.SYSTEM_PROPERTY, ClockAgent.OPTIONS_PROPERTY);
        assertEquals(AgentOptions.ENVIRONMENT_VARIABLE, ClockAgent.OPTIONS_VARIABLE);
    }

    @Test
    void theEntryPointsAndTheFloorLoadOnJava8() throws IOException {
        assertEquals(52, classFileMajorVersion(ClockAgent.class));
    }

    @Test
    void theRestOfTheAgentIsForJava11() throws IOException {
        assertEquals(55, classFileMajorVersion(Internals.class));
        assertEquals(55, classFileMajorVersion(AgentOptions.class));
    }

    private static int classFileMajorVersion(Class<?> type) throws IOException {
        try (InputStream in = type.getResourceAsStream(type.getSimpleName() + ".class")) {
            DataInputStream data = new DataInputStream(in);
            data.readInt();
            data.readUnsignedShort();
            return data.readUnsignedShort();
        }
    }
}
