package io.clockagent.it.support;

import io.clockagent.it.inspector.InspectorAgent;
import java.nio.file.Path;

/**
 * The test-only {@link InspectorAgent} packaged as an agent jar, from this module's compiled test classes. Written
 * into {@code target/} the first time a test asks for it in this JVM, then shared by every test; guarded by the class
 * lock.
 */
public final class InspectorJar {

    /**
     * The option an inspected run that loads several clock-reading classes gives clock-agent. The native class filter
     * takes over from the Java transformer part-way through such a run, and rewrites after every Java agent, this
     * inspector included, which would then record the classes it rewrote as they were before. The Java rewriter runs
     * where the inspector can see it; NativeRewriterParityTest holds the native rewriter to the same bytes, and
     * NativeClassFilterTest shows it taking over. A run whose only clock-reading class is its first class in scope
     * needs no such option: that class is in the Java transformer already when it starts defining the clock, which
     * the hand-over waits for.
     */
    public static final String JAVA_REWRITER = "nativeFilter=false";

    private static Path written;

    private InspectorJar() {
    }

    /** The inspector's agent jar, written on the first call in this JVM. */
    public static synchronized Path path() {
        if (written == null) {
            written = new JarBuilder()
                    .manifestAttribute("Premain-Class", InspectorAgent.class.getName())
                    .manifestAttribute("Can-Retransform-Classes", "true")
                    .addPackage(BuildOutputs.testClasses(), internalName(InspectorAgent.class.getPackageName()))
                    .writeTo(BuildOutputs.inspectorJar());
        }
        return written;
    }

    static String internalName(String binaryName) {
        return binaryName.replace('.', '/');
    }
}
