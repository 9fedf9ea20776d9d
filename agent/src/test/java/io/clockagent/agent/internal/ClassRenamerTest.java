package io.clockagent.agent.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.invoke.MethodHandles;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ClassRenamerTest {

    @Test
    void theRenamedClockNoLongerMentionsItsSourceNameAndStillWorks() throws Exception {
        String renamedName = "io.clockagent.agent.internal.generated.RenamedClock";
        byte[] renamed = ClassRenamer.rename(BootClock.sourceBytes(), BootClock.SOURCE_INTERNAL_NAME,
                renamedName.replace('.', '/'));

        Class<?> clock = defineAsIs(renamed);
        long before = System.currentTimeMillis();
        long read = (long) clock.getMethod("currentTimeMillis").invoke(null);

        assertFalse(new String(renamed, StandardCharsets.ISO_8859_1).contains(BootClock.SOURCE_INTERNAL_NAME));
        assertEquals(renamedName, clock.getName());
        assertTrue(read >= before, "with nothing published it reads the direct clock");
    }

    @Test
    void theRenamedClockOffersApplicationCodeOnlyTheRead() throws Exception {
        String renamedName = "io.clockagent.agent.internal.generated.SurfaceClock";
        byte[] renamed = ClassRenamer.rename(BootClock.sourceBytes(), BootClock.SOURCE_INTERNAL_NAME,
                renamedName.replace('.', '/'));
        Class<?> clock = defineAsIs(renamed);

        assertEquals(1, clock.getMethods().length - Object.class.getMethods().length, "one public method");
        assertEquals(0, clock.getFields().length, "no public field");
        assertEquals(0, clock.getConstructors().length, "no public constructor");
        assertThrows(IllegalAccessException.class,
                () -> MethodHandles.lookup().findStaticVarHandle(clock, "floorMillis", long.class));
    }

    /** Defines the class without any rewriting, which would redirect the clock's own direct read. */
    private static Class<?> defineAsIs(byte[] classFile) {
        return new ClassLoader(ClassRenamerTest.class.getClassLoader()) {
            Class<?> define() {
                return defineClass(null, classFile, 0, classFile.length);
            }
        }.define();
    }

    @Test
    void refusesAClassThatDoesNotNameTheSource() {
        byte[] other = GeneratedClasses.withoutClock("gen/Other", 61);

        assertThrows(ClassFileException.class, () -> ClassRenamer.rename(other, "gen/Missing", "gen/Target"));
    }
}
