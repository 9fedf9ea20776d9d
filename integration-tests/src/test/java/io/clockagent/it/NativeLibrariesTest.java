package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.support.NativeLibraries;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The native class filter libraries in the agent jar: each is a shared object built for the architecture its folder
 * names, whatever the build host, and a build that was given every cross compiler carries every library.
 */
class NativeLibrariesTest {

    /** The platforms a build with every compiler makes; {@code .ci/run} installs them and sets this variable. */
    private static final String EXPECTED_VARIABLE = "CLOCK_AGENT_EXPECTED_NATIVE_PLATFORMS";
    /** ELF's {@code e_machine} for each architecture, named as the JVM's {@code os.arch} names it. */
    private static final Map<String, Integer> ELF_MACHINES = Map.of("amd64", 62, "aarch64", 183);
    private static final byte[] ELF_MAGIC = {0x7f, 'E', 'L', 'F'};
    private static final int ELF_CLASS_64 = 2;
    private static final int ELF_LITTLE_ENDIAN = 1;
    private static final int ELF_SHARED_OBJECT = 3;

    @Test
    void eachLibraryIsASharedObjectForTheArchitectureItsFolderNames() {
        for (String platform : NativeLibraries.carried()) {
            String arch = platform.substring(platform.indexOf('-') + 1);
            assertTrue(platform.startsWith("linux-") && ELF_MACHINES.containsKey(arch),
                    "unexpected folder " + platform);
            ByteBuffer elf = ByteBuffer.wrap(NativeLibraries.bytes(platform)).order(ByteOrder.LITTLE_ENDIAN);

            assertTrue(Arrays.equals(ELF_MAGIC, Arrays.copyOf(elf.array(), ELF_MAGIC.length)), platform);
            assertEquals(ELF_CLASS_64, elf.get(4), platform + ": a 64-bit object");
            assertEquals(ELF_LITTLE_ENDIAN, elf.get(5), platform + ": little-endian");
            assertEquals(ELF_SHARED_OBJECT, elf.getShort(16), platform + ": a shared object");
            assertEquals(ELF_MACHINES.get(arch).intValue(), elf.getShort(18), platform + ": built for " + arch);
        }
    }

    @Test
    void aBuildWithEveryCompilerCarriesEveryLibrary() {
        String expected = System.getenv(EXPECTED_VARIABLE);
        if (expected == null) {
            System.out.println("NOTICE: " + EXPECTED_VARIABLE + " is not set, so which compilers the build had is"
                    + " unknown; the jar carries " + NativeLibraries.carried() + "; this check is SKIPPED, not"
                    + " passed.");
            Assumptions.abort(EXPECTED_VARIABLE + " not set");
        }
        assertEquals(List.of(expected.split(",")), NativeLibraries.carried());
    }
}
