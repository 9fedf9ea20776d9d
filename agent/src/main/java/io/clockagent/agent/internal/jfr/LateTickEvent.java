package io.clockagent.agent.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Timespan;

/** A tick published a whole tick period or more after its boundary, so readers saw a stale value meanwhile. */
@Name("io.clockagent.LateTick")
@Label("Late Clock Tick")
@Category("clock-agent")
@Description("The cached clock was refreshed a tick period or more after its wall-clock boundary")
final class LateTickEvent extends jdk.jfr.Event {

    @Label("Lag")
    @Timespan(Timespan.NANOSECONDS)
    long lagNanos;

    @Label("Tick")
    @Timespan(Timespan.NANOSECONDS)
    long tickNanos;

    /** Records one late tick if a recording wants it; costs one allocation otherwise. */
    static void commit(long lagNanos, long tickNanos) {
        LateTickEvent late = new LateTickEvent();
        if (late.shouldCommit()) {
            late.lagNanos = lagNanos;
            late.tickNanos = tickNanos;
            late.commit();
        }
    }
}
