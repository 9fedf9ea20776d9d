package io.clockagent.agent.internal.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.agent.internal.classfile.ClassRenamer;
import io.clockagent.agent.internal.classfile.GeneratedClasses;
import io.clockagent.agent.internal.classfile.RedirectedMethod;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Set;
import java.util.TreeSet;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.Test;

class ClassRenamerTest {

    @Test
    void theRenamedClockNoLongerMentionsItsSourceNameAndStillWorks() throws Exception {
        String renamedName = "io.clockagent.agent.internal.generated.RenamedClock";
        byte[] renamed = ClassRenamer.rename(BootClock.sourceBytes(BootClock.SOURCE_INTERNAL_NAME), BootClock.SOURCE_INTERNAL_NAME,
                renamedName.replace('.', '/'));

        Class<?> clock = defineAsIs(renamed);
        long before = System.currentTimeMillis();
        long read = (long) clock.getMethod("currentTimeMillis").invoke(null);

        assertFalse(new String(renamed, StandardCharsets.ISO_8859_1).contains(BootClock.SOURCE_INTERNAL_NAME));
        assertEquals(renamedName, clock.getName());
        assertTrue(read >= before, "with nothing published it reads the direct clock");
    }

    @Test
    void theRenamedClockOffersApplicationCodeOnlyReads() throws Exception {
        String renamedName = "io.clockagent.agent.internal.generated.SurfaceClock";
        // As BootClock.classFile renames it for the JDK that runs the tests, under a name a test may define.
        byte[] renamed = BootClock.withInstantSource(ClassRenamer.rename(BootClock.sourceBytes(
                BootClock.SOURCE_INTERNAL_NAME), BootClock.SOURCE_INTERNAL_NAME, renamedName.replace('.', '/')), true);
        Class<?> clock = defineAsIs(renamed);

        Set<String> redirectTargets = new TreeSet<>();
        for (RedirectedMethod redirected : RedirectedMethod.ALL) {
            for (String target : new String[] {redirected.target(false), redirected.target(true)}) {
                if (target != null) {
                    redirectTargets.add(target + redirected.descriptor());
                }
            }
        }
        Set<String> publicStatic = new TreeSet<>();
        Set<String> publicInstance = new TreeSet<>();
        for (Method method : clock.getDeclaredMethods()) {
            if (Modifier.isPublic(method.getModifiers())) {
                (Modifier.isStatic(method.getModifiers()) ? publicStatic : publicInstance).add(method.getName()
                        + MethodType.methodType(method.getReturnType(), method.getParameterTypes())
                                .toMethodDescriptorString());
            }
        }

        assertEquals(redirectTargets, publicStatic, "the targets of the redirects, with their descriptors, and no more");
        assertEquals(Set.of("millis()J", "instant()Ljava/time/Instant;", "getZone()Ljava/time/ZoneId;",
                "withZone(Ljava/time/ZoneId;)Ljava/time/Clock;", "equals(Ljava/lang/Object;)Z", "hashCode()I",
                "toString()Ljava/lang/String;"), publicInstance, "a java.time.Clock's methods");
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

        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> ClassRenamer.rename(other, "gen/Missing", "gen/Target"));
        assertTrue(refused.getMessage().contains("does not name it"), refused.getMessage());
    }

    @Test
    void renamesTheNameInEveryDescriptorAndKeepsTheRestOfTheClass() throws Exception {
        ClassWriter writer = new ClassWriter(0);
        writer.visit(61, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, "gen/Self", null, "java/lang/Object", null);
        writer.visitField(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "selves", "[Lgen/Self;", null, null).visitEnd();
        writer.visitField(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "note", "Ljava/lang/String;", null,
                "caf\u00e9 \u2603").visitEnd();
        MethodVisitor method = writer.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "pair",
                "(Lgen/Self;J)[Lgen/Self;", null, null);
        method.visitCode();
        method.visitInsn(Opcodes.ICONST_2);
        method.visitTypeInsn(Opcodes.ANEWARRAY, "gen/Self");
        method.visitInsn(Opcodes.ARETURN);
        method.visitMaxs(1, 3);
        method.visitEnd();
        writer.visitEnd();

        byte[] renamed = ClassRenamer.rename(writer.toByteArray(), "gen/Self", "gen/RenamedAtLength");
        Class<?> defined = defineAsIs(renamed);

        assertEquals("gen.RenamedAtLength", defined.getName());
        assertEquals(Array.newInstance(defined, 0).getClass(), defined.getField("selves").getType());
        assertEquals("caf\u00e9 \u2603", defined.getField("note").get(null), "an entry of other bytes, untouched");
        Object[] pair = (Object[]) defined.getMethod("pair", defined, long.class).invoke(null, null, 1L);
        assertEquals(defined, pair.getClass().getComponentType());
        assertFalse(new String(renamed, StandardCharsets.ISO_8859_1).contains("gen/Self"));
    }

    @Test
    void theClockAsTheEntriesDefineItReachesItsCellsThroughTheJdksUnsafe() throws Exception {
        for (boolean withInstantSource : new boolean[] {true, false}) {
            String classFile = new String(BootClock.classFile(withInstantSource), StandardCharsets.ISO_8859_1);

            assertTrue(classFile.contains(BootClock.INTERNAL_NAME));
            assertTrue(classFile.contains("()L" + BootClock.UNSAFE_INTERNAL_NAME + ";"), "the stand-in's getUnsafe()");
            assertFalse(classFile.contains("io/clockagent/agent/"), "no name of the agent's is left");
        }
    }

    /** Reflection over the clock resolves every type its methods return, which a JDK before 17 must have. */
    @Test
    void theClockForAJdkWithoutInstantSourceNamesItNowhereAndReturnsAClockInItsPlace() throws Exception {
        String withIt = new String(BootClock.classFile(true), StandardCharsets.ISO_8859_1);
        String withoutIt = new String(BootClock.classFile(false), StandardCharsets.ISO_8859_1);
        Class<?> clock = defineAsIs(BootClock.withInstantSource(ClassRenamer.rename(BootClock.sourceBytes(
                BootClock.SOURCE_INTERNAL_NAME), BootClock.SOURCE_INTERNAL_NAME,
                "io/clockagent/agent/internal/generated/ClockBefore17"), false));

        assertTrue(withIt.contains("()L" + BootClock.INSTANT_SOURCE_INTERNAL_NAME + ";"), "instantSourceSystem()");
        assertFalse(withoutIt.contains(BootClock.INSTANT_SOURCE_INTERNAL_NAME));
        for (String inPlaceOfSystem : new String[] {"instantSourceSystem", "cachedInstantsInstantSourceSystem"}) {
            assertEquals(Clock.class, clock.getMethod(inPlaceOfSystem).getReturnType(), inPlaceOfSystem);
        }
    }

    @Test
    void refusesAClassThatAlsoNamesTheSourceElsewhere() {
        // An inner class's name holds the outer name, in no form the renamer rewrites; it must refuse rather than
        // leave the old name behind.
        ClassWriter writer = new ClassWriter(0);
        writer.visit(61, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, "gen/Self", null, "java/lang/Object", null);
        writer.visitField(Opcodes.ACC_STATIC, "inner", "Lgen/Self$Inner;", null, null).visitEnd();
        writer.visitEnd();

        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> ClassRenamer.rename(writer.toByteArray(), "gen/Self", "gen/Renamed"));
        assertTrue(refused.getMessage().contains("does not handle"), refused.getMessage());
    }
}
