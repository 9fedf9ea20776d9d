package io.clockagent.it.seeds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.seeds.SeedsExperimentMain;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdk;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The experiment of seeds/000 as a test runs it, in forked JVMs of {@link SeedsExperimentMain}: the size of the
 * single-thread loop and how often it is timed, and how many threads run the loop together with how many calls
 * each. Immutable.
 */
public record SeedsExperiment(int calls, int repeats, int threads, int callsPerThread) {

    private static final String FIXTURE_PACKAGE = SeedsExperimentMain.class.getPackageName();
    /** verbose=true, so that stderr says the fixture's one call site was rewritten. */
    private static final String AGENT_OPTIONS = "include=" + FIXTURE_PACKAGE + ",verbose=true";

    /**
     * Runs the experiment {@code rounds} times with the agent off and on, alternating off, on, off, on, ... so that
     * whatever else loads the machine falls on both alike.
     *
     * @param environment variables set in every forked JVM, such as {@code LD_PRELOAD}
     */
    public SeedsComparison compare(Jdk jdk, int rounds, Map<String, String> environment, Path outputDirectory) {
        List<SeedsRun> off = new ArrayList<>();
        List<SeedsRun> on = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            off.add(run(jdk, false, environment, outputDirectory));
            on.add(run(jdk, true, environment, outputDirectory));
        }
        return new SeedsComparison(this, jdk, off, on);
    }

    /**
     * One forked run. Fails the test unless the JVM exits normally and the agent, when on, rewrote the fixture's call
     * site (and, when off, is silent).
     */
    public SeedsRun run(Jdk jdk, boolean agentOn, Map<String, String> environment, Path outputDirectory) {
        ForkedJvm jvm = new ForkedJvm(jdk, outputDirectory).classPath(BuildOutputs.testClasses());
        environment.forEach(jvm::environment);
        if (agentOn) {
            jvm.javaagent(BuildOutputs.agentJar(), AGENT_OPTIONS);
        }
        ForkResult fork = jvm.runMain(SeedsExperimentMain.class.getName(), String.valueOf(calls),
                String.valueOf(repeats), String.valueOf(threads), String.valueOf(callsPerThread));

        assertEquals(0, fork.exitStatus(), fork.describe());
        if (agentOn) {
            assertEquals(2, fork.stderr().size(), "the banner and one rewrite line\n" + fork.describe());
            assertTrue(AgentStderr.banner(FIXTURE_PACKAGE, AgentStderr.NO_EXCLUDES).matcher(fork.stderr().get(0))
                    .matches(), fork.describe());
            assertEquals(AgentStderr.rewrote(SeedsExperimentMain.class.getName(), 1, 0), fork.stderr().get(1),
                    fork.describe());
        } else {
            assertEquals(List.of(), fork.stderr(), fork.describe());
        }
        return SeedsRun.parse(fork);
    }
}
