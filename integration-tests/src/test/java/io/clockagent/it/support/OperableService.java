package io.clockagent.it.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.clockagent.it.fixtures.operability.OperableServiceMain;
import java.util.Map;
import java.util.TreeMap;

/**
 * The operability fixture as the tests see it: what to run, what to include, and the clock reads the agent must
 * find in it, class by class and method by method. The numbers are written out here rather than computed, so that
 * a miscount in the agent cannot hide behind the same miscount in the test.
 */
public final class OperableService {

    public static final String MAIN_CLASS = OperableServiceMain.class.getName();
    public static final String SITES_PACKAGE = "io.clockagent.it.fixtures.operability.sites";
    /** The option that rewrites the {@code sites} package and nothing else. */
    public static final String INCLUDE_SITES = "include=" + SITES_PACKAGE;

    /** What the {@code sites} command loads from the package: KnownSites, ConstructorSite and NoSites. */
    public static final int CLASSES_SCANNED = 3;
    public static final int CLASSES_REWRITTEN = 2;
    public static final int CALL_SITES = 5;
    public static final int METHOD_REFERENCES = 3;

    /** The rewritten classes by binary name, then their methods by name and descriptor, as the agent names them. */
    public static final Map<String, Map<String, MethodSites>> SITES_BY_CLASS = Map.of(
            SITES_PACKAGE + ".KnownSites", Map.of(
                    "stamp()J", new MethodSites(1, 0),
                    "elapsedSince(J)J", new MethodSites(1, 0),
                    "pair()[J", new MethodSites(2, 0),
                    "reference()Ljava/util/function/LongSupplier;", new MethodSites(0, 1),
                    "references()Ljava/util/List;", new MethodSites(0, 2)),
            SITES_PACKAGE + ".ConstructorSite", Map.of(
                    "<init>()V", new MethodSites(1, 0)));

    private OperableService() {
    }

    /**
     * Fails when the table above disagrees with the compiled fixture, read with ASM; then the table, not the agent,
     * needs fixing.
     */
    public static void assertTableMatchesClassFiles() {
        Map<String, ClockReferences> expected = new TreeMap<>();
        Map<String, ClockReferences> compiled = new TreeMap<>();
        int callSites = 0;
        int methodReferences = 0;
        for (Map.Entry<String, Map<String, MethodSites>> byClass : SITES_BY_CLASS.entrySet()) {
            int classCallSites = 0;
            int classMethodReferences = 0;
            for (MethodSites method : byClass.getValue().values()) {
                classCallSites += method.callSites();
                classMethodReferences += method.methodReferences();
            }
            callSites += classCallSites;
            methodReferences += classMethodReferences;
            expected.put(byClass.getKey(), new ClockReferences(classCallSites, classMethodReferences, 0, 0));
        }
        ClassFiles.under(BuildOutputs.testClasses(), SITES_PACKAGE.replace('.', '/')).forEach((name, bytes) -> {
            ClockReferences references = ClockReferences.in(bytes);
            if (references.readsSystemClock()) {
                compiled.put(name.replace('/', '.'), references);
            }
        });
        assertEquals(expected, compiled, "OperableService's table against the compiled sites package");
        assertEquals(CALL_SITES, callSites, "CALL_SITES against the table");
        assertEquals(METHOD_REFERENCES, methodReferences, "METHOD_REFERENCES against the table");
        assertEquals(CLASSES_REWRITTEN, SITES_BY_CLASS.size(), "CLASSES_REWRITTEN against the table");
    }

    /** What one method holds: {@code invokestatic}s of the clock, and method references to it. */
    public record MethodSites(int callSites, int methodReferences) {
    }
}
