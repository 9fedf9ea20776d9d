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
     * The option an inspected run through {@code -javaagent} gives clock-agent. Its native start hooks class loading
     * from {@code premain}, in a JVMTI environment of its own that the JVM calls after every Java agent's, this
     * inspector's included, which would then record the classes it rewrote as they were before. The Java start's
     * rewriter runs where the inspector can see it; NativeRewriterParityTest holds the native rewriter to the same
     * bytes, and NativeClassFilterTest shows it rewriting.
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
