package io.clockagent.it.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.clockagent.agent.bootstrap.CachedClock;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * No torn 64-bit value: a reader sees one of the published values whole, never half of one and half of another.
 * The two values differ in both halves, and no mix of their halves (or of theirs and the empty cell's) is a value
 * the test publishes or a reading of the direct clock.
 *
 * <p>The cell is static, shared by every state object jcstress makes, so each outcome is judged on its own.
 */
@JCStressTest
@Description("Cached clock: the 64-bit value is published and read whole")
@Outcome(id = "0", expect = ACCEPTABLE, desc = "no value of this test yet: the direct clock, or an earlier test's")
@Outcome(id = "1", expect = ACCEPTABLE, desc = "the first value, whole")
@Outcome(id = "2", expect = ACCEPTABLE, desc = "the second value, whole")
@Outcome(id = "-1", expect = FORBIDDEN, desc = "a torn value: halves of two different values")
@State
public class CachedClockTearing {

    private static final long FIRST = 0xFFFF_FFFF_FFFF_FFFFL;
    private static final long SECOND = 0x0000_0001_0000_0001L;

    @Actor
    public void ticker() {
        CachedClockWriteSide.publish(FIRST);
        CachedClockWriteSide.publish(SECOND);
    }

    @Actor
    public void reader(I_Result result) {
        long read = CachedClock.currentTimeMillis();
        result.r1 = read == FIRST ? 1 : read == SECOND ? 2 : isMadeOfTheirHalves(read) ? -1 : 0;
    }

    /** Each half is a half of FIRST, of SECOND, or of the empty cell's 0. */
    private static boolean isMadeOfTheirHalves(long read) {
        return isHalf((int) (read >>> 32)) && isHalf((int) read);
    }

    private static boolean isHalf(int half) {
        return half == (int) FIRST || half == (int) SECOND || half == 0;
    }
}
