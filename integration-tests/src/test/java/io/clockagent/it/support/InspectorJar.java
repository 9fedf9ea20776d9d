package io.clockagent.it.support;

import io.clockagent.it.inspector.InspectorAgent;
import java.nio.file.Path;

/** Packages the test-only {@link InspectorAgent} as an agent jar, from this module's compiled test classes. */
public final class InspectorJar {

    private InspectorJar() {
    }

    /** Writes {@code inspector.jar} into {@code directory} and returns its path. */
    public static Path writeInto(Path directory) {
        return new JarBuilder()
                .manifestAttribute("Premain-Class", InspectorAgent.class.getName())
                .manifestAttribute("Can-Retransform-Classes", "true")
                .addPackage(BuildOutputs.testClasses(), internalName(InspectorAgent.class.getPackageName()))
                .writeTo(directory.resolve("inspector.jar"));
    }

    static String internalName(String binaryName) {
        return binaryName.replace('.', '/');
    }
}
