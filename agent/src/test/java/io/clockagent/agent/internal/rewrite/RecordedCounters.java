package io.clockagent.agent.internal.rewrite;

import io.clockagent.agent.internal.classfile.RewrittenClass;
import java.util.List;

/** Counters as the transformer would have left them, for the tests of the rooms that read them. */
public final class RecordedCounters {

    private RecordedCounters() {
    }

    /** Counters that keep the list of rewritten classes, with sites counted for each of {@code rewritten}. */
    public static RewriteCounters of(int scanned, List<RewrittenClass> rewritten, List<String> failedClassNames) {
        RewriteCounters counters = new RewriteCounters(true, true);
        for (int i = 0; i < scanned; i++) {
            counters.scanned();
        }
        for (RewrittenClass each : rewritten) {
            counters.rewritten();
            counters.sitesCounted(each);
        }
        for (String className : failedClassNames) {
            counters.failed(className);
        }
        return counters;
    }

    /** Records a class with {@code uses} reads of instants left direct, as the sites' counter does. */
    public static void instantReadsLeft(RewriteCounters counters, int uses) {
        counters.instantReadsLeft(uses);
    }
}
