package io.clockagent.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ClockRewriteCheckTest {

    @Test
    void withoutTheAgentClockReadsGoToSystem() {
        assertEquals("java.lang.System", ClockRewriteCheck.clockClass());
    }
}
