package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.early.EarlyMain;
import io.clockagent.it.fixtures.early.EarlySystemLoader;
import io.clockagent.it.support.AgentEntry;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.OnEachJdkThroughBothEntries;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * A class in scope that the JVM loads before either entry turns its hook on (the native start turns it on at the
 * JVM's VMInit, or in {@code premain}): a custom system class loader. The hook retransforms it then, so it is
 * rewritten all the same.
 */
class EarlyClassesTest {

    private static final String PACKAGE = EarlyMain.class.getPackageName();

    @OnEachJdkThroughBothEntries
    void aCustomSystemClassLoaderIsRewrittenThoughItLoadedBeforeTheHook(int featureVersion, AgentEntry entry,
            @TempDir Path runDirectory) {
        ForkResult result = entry.addTo(new ForkedJvm(Jdks.require(featureVersion), runDirectory)
                        .option("-Djava.system.class.loader=" + EarlySystemLoader.class.getName()),
                        "include=" + PACKAGE + ",verbose=true")
                .classPath(BuildOutputs.testClasses())
                .runMain(EarlyMain.class.getName());

        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals("system loader " + EarlySystemLoader.class.getName(),
                result.stdoutLineStartingWith("system loader "), result.describe());
        assertEquals("stamp true", result.stdoutLineStartingWith("stamp "), result.describe());
        assertTrue(result.stderr().contains(AgentStderr.rewrote(EarlySystemLoader.class.getName(), 1, 0)),
                "the system loader, loaded before the hook, rewritten\n" + result.describe());
    }
}
