package io.clockagent.bench;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The -agentpath budget's rule, as the stacks and the class-heavy program read it ({@code StackComparison}). */
class AgentPathBudgetTest {

    @Test
    void atMostThreePercentAboveNoAgentIsMet() {
        assertTrue(StackComparison.agentPathBudget(103, 100, Double.NaN).endsWith(": met"));
    }

    @Test
    void moreThanThreePercentAboveNoAgentIsMissedWithoutTheNativeAgent() {
        assertTrue(StackComparison.agentPathBudget(104, 100, Double.NaN).endsWith(": MISSED"));
    }

    @Test
    void aNativeAgentAboveTwoPercentLetsWithinOnePercentOfItPass() {
        String verdict = StackComparison.agentPathBudget(104, 100, 103.5);

        assertTrue(verdict.contains("the do-nothing native agent itself 1.035x"), verdict);
        assertTrue(verdict.endsWith(": met"), verdict);
    }

    @Test
    void moreThanOnePercentAboveANoisyNativeAgentIsMissed() {
        assertTrue(StackComparison.agentPathBudget(106, 100, 103.5).endsWith(": MISSED"));
    }

    @Test
    void aNativeAgentAtOrBelowTwoPercentLeavesTheThreePercentRule() {
        String verdict = StackComparison.agentPathBudget(104, 100, 102);

        assertTrue(verdict.endsWith(": MISSED"), verdict);
        assertFalse(verdict.contains("native agent itself"), verdict);
    }
}
