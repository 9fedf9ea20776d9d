package io.clockagent.it.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.clockagent.agent.bootstrap.CachedClock;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * Per-reader coherence of the opaque publication: once a reader has seen a tick's value, its next read never
 * returns an earlier one. The writer publishes ever larger values, one per call, as the ticker does.
 *
 * <p>The cell is static and shared by every state object, so values must be globally ordered: the writer counts
 * in a static field that only its one actor thread touches, and the reader's two values are judged against each
 * other alone.
 */
@JCStressTest
@Description("Cached clock: a reader never sees a newer value and then an older one")
@Outcome(id = "0", expect = ACCEPTABLE, desc = "no value of this test yet, twice")
@Outcome(id = "1", expect = ACCEPTABLE, desc = "the first value came between the two reads")
@Outcome(id = "2", expect = ACCEPTABLE, desc = "the same value twice")
@Outcome(id = "3", expect = ACCEPTABLE, desc = "a newer value on the second read")
@Outcome(id = "-1", expect = FORBIDDEN, desc = "a value, then none of this test's (the empty cell again)")
@Outcome(id = "-2", expect = FORBIDDEN, desc = "a newer value, then an older one")
@State
public class CachedClockCoherence {

    /** Above any wall-clock reading, so the direct clock is never taken for a published value. */
    private static final long BASE = 1L << 61;
    private static long published = BASE;

    private long first;
    private long second;

    @Actor
    public void ticker() {
        CachedClockWriteSide.publish(++published);
    }

    @Actor
    public void reader() {
        first = CachedClock.currentTimeMillis();
        second = CachedClock.currentTimeMillis();
    }

    @Arbiter
    public void judge(I_Result result) {
        result.r1 = SuccessiveReads.judge(first, second, BASE);
    }
}
