package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.hotloop.HotLoopMain;
import io.clockagent.it.fixtures.hotloop.SpinUntil;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.OnEachJdk;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;

/**
 * Liveness of the cached read under the JIT: {@code while (System.currentTimeMillis() < deadline) {}}, rewritten and
 * compiled by C2, ends. A read that C2 could hoist out of the loop (a plain field, say) would spin forever. The JVM
 * runs C2 only and compiles in the foreground, so the loop provably runs as C2 code, which the JVM's compilation
 * log shows. The log goes to a file of its own, where no line of the program's output can cut into it.
 */
class HotLoopTest {

    /** Each of the two loops lasts 300 ms; only a loop that never ends comes near this. */
    private static final long PATIENCE_SECONDS = 60;
    private static final String LOOP = SpinUntil.class.getName() + "::spinUntil";

    @OnEachJdk
    void aHotC2CompiledLoopOnTheCachedClockEnds(int featureVersion, @TempDir Path runDirectory) throws IOException {
        Path compilationLog = runDirectory.resolve("compilation.log");
        ForkResult result = new ForkedJvm(Jdks.require(featureVersion), runDirectory)
                .option("-XX:-TieredCompilation", "-Xbatch", "-Xlog:jit+compilation=debug:file=" + compilationLog)
                .javaagent(BuildOutputs.agentJar(), "include=" + SpinUntil.class.getPackageName() + ",verbose=true")
                .classPath(BuildOutputs.testClasses())
                .timeoutSeconds(PATIENCE_SECONDS)
                .runMain(HotLoopMain.class.getName());

        assertEquals(0, result.exitStatus(), result.describe());
        assertTrue(result.stderr().contains(AgentStderr.rewrote(SpinUntil.class.getName(), 1, 0)),
                "the loop reads the cached clock\n" + result.describe());
        assertEquals(List.of("returned 1", "returned 2"), result.stdout(), result.describe());
        List<String> compilations = Files.readAllLines(compilationLog, StandardCharsets.UTF_8);
        assertTrue(compiled(compilations, true), "the loop was compiled on the stack (OSR)\n" + compilations);
        assertTrue(compiled(compilations, false), "the method was compiled\n" + compilations);
    }

    /**
     * Whether the log reports a compilation of the loop's method, on the stack or whole: in the flags between the
     * line's decorations and the method, {@code %} marks an on-stack compilation.
     */
    private static boolean compiled(List<String> compilations, boolean onStack) {
        for (String line : compilations) {
            int method = line.indexOf(LOOP);
            if (method > 0 && !line.contains("made not entrant")
                    && line.substring(line.lastIndexOf(']', method) + 1, method).contains("%") == onStack) {
                return true;
            }
        }
        return false;
    }
}
