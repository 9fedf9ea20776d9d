package io.clockagent.agent.internal.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.agent.internal.activecopy.ActiveCopy;
import io.clockagent.agent.internal.log.CapturedLog;
import io.clockagent.agent.internal.options.AgentOptions;
import io.clockagent.agent.internal.rewrite.ClockClasses;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class InstallationTest {

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void aDetachRestoresThroughTheClassRewritingOnceAndGivesUpTheClaimLast() {
        String banner = "clock-agent: a test's claim";
        assertTrue(ActiveCopy.claim(banner), "no other copy holds this JVM");
        RecordedRewriting rewriting = new RecordedRewriting(7);
        Installation installation = new Installation(rewriting, AgentOptions.parse("include=com.acme"), banner,
                "tsc", CapturedLog.into(err));

        installation.run();
        installation.run();

        assertEquals(1, rewriting.restores, "a second request does nothing more");
        assertEquals("clock-agent: detached: ticker stopped, original code restored in 7 classes",
                err.toString(StandardCharsets.UTF_8).strip());
        assertNull(ActiveCopy.active(), "the claim is given up");
    }

    @Test
    void aDetachThatFailsSaysSoAndStillGivesUpTheClaim() {
        String banner = "clock-agent: a test's claim";
        assertTrue(ActiveCopy.claim(banner), "no other copy holds this JVM");
        RecordedRewriting rewriting = new RecordedRewriting(-1);
        Installation installation = new Installation(rewriting, AgentOptions.parse("include=com.acme,jmx=false"),
                banner, "tsc", CapturedLog.into(err));

        installation.run();

        assertEquals("clock-agent: could not detach: java.lang.IllegalStateException: cannot restore",
                err.toString(StandardCharsets.UTF_8).strip());
        assertNull(ActiveCopy.active(), "the claim is given up");
    }

    /** Counts its restores; a negative count of classes makes a restore fail. */
    private static final class RecordedRewriting implements ClassRewriting {

        private final int restoredClasses;
        private int restores;

        RecordedRewriting(int restoredClasses) {
            this.restoredClasses = restoredClasses;
        }

        @Override
        public boolean isNative() {
            return true;
        }

        @Override
        public String describe() {
            return "native";
        }

        @Override
        public long classesScannedNatively() {
            return 0;
        }

        @Override
        public long classesRewrittenNatively() {
            return 0;
        }

        @Override
        public ClockClasses clockClasses() {
            return ClockClasses.NONE;
        }

        @Override
        public int restore() {
            restores++;
            if (restoredClasses < 0) {
                throw new IllegalStateException("cannot restore");
            }
            return restoredClasses;
        }
    }
}
