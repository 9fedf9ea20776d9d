package io.clockagent.agent.internal.install;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.clockagent.agent.internal.classfile.ClassRenamer;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

/**
 * The loading class's file that the build renamed into {@code java.lang} is the one the run-time renaming makes of
 * the class compiled now, so the two cannot drift apart (a stale build output, a generator that renames otherwise).
 */
class NativeStartLibraryClassFileTest {

    @Test
    void theBuiltClassFileIsTheSourceClassRenamed() throws IOException {
        byte[] renamedNow = ClassRenamer.rename(resource(NativeStart.LIBRARY_SOURCE_INTERNAL_NAME + ".class"),
                NativeStart.LIBRARY_SOURCE_INTERNAL_NAME, NativeStart.LIBRARY_INTERNAL_NAME);

        assertArrayEquals(renamedNow, resource(NativeStart.LIBRARY_CLASS_FILE_RESOURCE));
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = NativeStart.class.getClassLoader().getResourceAsStream(name)) {
            assertNotNull(in, name + " is not among the agent's classes");
            return in.readAllBytes();
        }
    }
}
