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
 * A withdrawal (0 in the cell) followed by a republish is seen in order, as the ticker does it when it goes idle
 * and a reader wakes it. The writer withdraws with the floor that {@code monotonic=true} sets, the last value it
 * published: a reader that finds the cell empty takes the floor, which lies above every wall-clock reading here. So
 * each read returns a value of the test, and two successive reads must never go back: not to a value from before
 * the withdrawal once the republished one was seen, and not below the floor, which the release store of 0 makes
 * visible to a reader that sees the 0. A reader that saw the 0 without the floor would return the wall clock and be
 * judged as going back to none.
 *
 * <p>As in {@link CachedClockCoherence}, values are globally ordered because the cell is static.
 */
@JCStressTest
@Description("Cached clock: withdraw (0) and republish are seen in order, and the floor comes with the 0")
@Outcome(id = "0", expect = ACCEPTABLE, desc = "no value of this test yet, twice")
@Outcome(id = "1", expect = ACCEPTABLE, desc = "the first value came between the two reads")
@Outcome(id = "2", expect = ACCEPTABLE, desc = "the same value twice (read from the cell or as the floor)")
@Outcome(id = "3", expect = ACCEPTABLE, desc = "a newer value on the second read")
@Outcome(id = "-1", expect = FORBIDDEN, desc = "a value, then the wall clock: the empty cell without its floor")
@Outcome(id = "-2", expect = FORBIDDEN, desc = "a newer value, then an older one")
@State
public class CachedClockWithdrawal {

    /** Above any wall-clock reading, so the floor wins over the direct clock. */
    private static final long BASE = 1L << 60;
    private static long published = BASE;

    private long first;
    private long second;

    @Actor
    public void ticker() {
        long beforeIdle = ++published;
        CachedClockWriteSide.publish(beforeIdle);
        CachedClockWriteSide.withdraw(beforeIdle);
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
