package io.clockagent.agent.internal.options;

import java.util.ArrayList;
import java.util.List;

/**
 * The lines that say which {@code clocks} entries were left out so that the rest of the options runs: one an entry for
 * the first {@link #MOST}, then one that counts the others, so that a long option string of bad entries prints a few
 * short lines rather than one an entry, and costs no more memory than a short one.
 */
final class LeftOutEntries {

    static final int MOST = 8;

    private final List<String> lines = new ArrayList<>();
    private int uncounted;

    /** An entry {@code raw} of {@code token} left out, and why ({@code why} follows the token's quote). */
    void add(String raw, OptionToken token, String why) {
        if (lines.size() < MOST) {
            lines.add("ignored '" + OptionToken.excerpt(raw) + "' in " + token.quoted() + why);
        } else {
            uncounted++;
        }
    }

    boolean isEmpty() {
        return lines.isEmpty();
    }

    /** The first line, which {@code strict=true} makes the error. */
    String first() {
        return lines.get(0);
    }

    List<String> lines() {
        List<String> all = new ArrayList<>(lines);
        if (uncounted > 0) {
            all.add("ignored " + uncounted + " more clocks entries");
        }
        return List.copyOf(all);
    }
}
