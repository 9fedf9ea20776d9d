package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.beforemain.BeforeMainMain;
import io.clockagent.it.fixtures.beforemain.sites.ClockReading;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.NativeLibraries;
import io.clockagent.it.support.OnEachJdk;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code -javaagent} costs every JVM before {@code main}, counted in the agent's classes, each of which is read
 * from the jar, verified and run in the interpreter there: a bound, so that the count cannot creep back up. The list
 * is printed when the bound is exceeded. Counted in the {@code -Xlog:class+load} file up to the fixture's main class,
 * which loads after {@code premain} and lies outside the agent's scope, so that nothing of the agent runs between.
 * The bound is the native start's: from a jar built without a C compiler, which carries no library, the Java start
 * serves, with its thirty-odd classes, and this test is skipped.
 */
class AgentClassesBeforeMainTest {

    /**
     * The agent classes {@code premain} loads where the native library starts the agent: the entry with its Java
     * floor, the native start and the jar's libraries. The Java start loaded 30 (33 before the native filter's and the
     * rewriter's classes moved to the first class in scope), the native start 9 while it ran in the internals' own
     * loader below Java 24 too, and 6 before the entry took in the Java floor and the native start's call, and
     * NativeLibraries the library's private file.
     */
    static final int MAX_AGENT_CLASSES_BEFORE_MAIN = 3;
    /**
     * From Java 24 on, the native start runs in the internals' own loader, reached through their gateway, and opens
     * {@code java.lang} to load the library warning-free through one more class, which defines the loading class there
     * (renamed by the build, so {@code ClassRenamer} does not load).
     */
    static final int FROM_24_INTERNALS_LOADER_CLASSES = 2;
    static final int JAVA_LANG_OPENING_CLASSES = 1;
    static final int FIRST_RELEASE_RESTRICTING_LIBRARIES = 24;
    private static final String AGENT_PACKAGE = " io.clockagent.agent.";

    @OnEachJdk
    void premainLoadsNoMoreAgentClassesThanTheBound(int featureVersion, @TempDir Path runDirectory)
            throws IOException {
        NativeLibraries.requireForThisMachine();
        Path classLoadLog = runDirectory.resolve("class-load.log");
        ForkResult result = new ForkedJvm(Jdks.require(featureVersion), runDirectory)
                .javaagent(BuildOutputs.agentJar(), "include=" + ClockReading.class.getPackageName())
                .option("-Xlog:class+load=info:file=" + classLoadLog)
                .classPath(BuildOutputs.testClasses())
                .runMain(BeforeMainMain.class.getName());

        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals(List.of("read true"), result.stdout(), "the clock read in scope\n" + result.describe());
        String mainClassLoaded = " " + BeforeMainMain.class.getName() + " ";
        List<String> beforeMain = new ArrayList<>();
        boolean mainLoaded = false;
        for (String line : Files.readAllLines(classLoadLog)) {
            if (line.contains(mainClassLoaded)) {
                mainLoaded = true;
                break;
            }
            int agentClass = line.indexOf(AGENT_PACKAGE);
            if (agentClass >= 0) {
                beforeMain.add(line.substring(agentClass + 1, line.indexOf(' ', agentClass + 1)));
            }
        }
        assertTrue(mainLoaded, "the main class is not in the class-load log\n" + result.describe());
        assertTrue(beforeMain.size() >= 3, "the agent's entry, native start and libraries load before main, so the log"
                + " must show them: " + beforeMain + "\n" + result.describe());
        int bound = MAX_AGENT_CLASSES_BEFORE_MAIN
                + (featureVersion >= FIRST_RELEASE_RESTRICTING_LIBRARIES
                        ? FROM_24_INTERNALS_LOADER_CLASSES + JAVA_LANG_OPENING_CLASSES : 0);
        assertTrue(beforeMain.size() <= bound, beforeMain.size() + " agent classes before main, more than " + bound
                + ": " + String.join(", ", beforeMain));
    }
}
