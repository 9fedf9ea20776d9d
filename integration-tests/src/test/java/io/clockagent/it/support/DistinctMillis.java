package io.clockagent.it.support;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.probe.DistinctMillisProbe;

/**
 * What {@link DistinctMillisProbe} measured in a forked JVM run with {@code tick=1s}: how often a call site's value
 * changed, and how often the direct clock's did in the same loop. A rewritten site changes a handful of times while
 * the direct clock changes hundreds; a direct site changes as often as the direct clock. The margins are factors, not
 * milliseconds.
 */
public record DistinctMillis(int siteChanges, int directChanges) {

    /** @param reply a line ending in {@code site=S direct=D} */
    public static DistinctMillis parse(String reply) {
        String[] words = reply.split(" ");
        int site = -1;
        int direct = -1;
        for (String word : words) {
            if (word.startsWith("site=")) {
                site = Integer.parseInt(word.substring("site=".length()));
            } else if (word.startsWith("direct=")) {
                direct = Integer.parseInt(word.substring("direct=".length()));
            }
        }
        if (site < 0 || direct < 0) {
            throw new AssertionError("not a probe reply: '" + reply + "'");
        }
        return new DistinctMillis(site, direct);
    }

    public boolean cached() {
        return siteChanges * 5 < directChanges;
    }

    public boolean direct() {
        return siteChanges * 2 > directChanges;
    }

    public void assertCached(String what) {
        assertTrue(cached(), what + " should read the cached clock (tick=1s): its value changed " + siteChanges
                + " times while the direct clock's changed " + directChanges + " times");
    }

    public void assertDirect(String what) {
        assertTrue(direct(), what + " should read the direct clock: its value changed " + siteChanges
                + " times while the direct clock's changed " + directChanges + " times");
    }
}
