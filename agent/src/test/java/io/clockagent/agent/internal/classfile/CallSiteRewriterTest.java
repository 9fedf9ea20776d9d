package io.clockagent.agent.internal.classfile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.agent.internal.fixtures.FixedClock;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.Handle;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class CallSiteRewriterTest {

    private static final ClockMethod OWN_CLOCK = RewritingClassLoader.OWN_CLOCK;
    private static final ClockMethods WITH_OWN_CLOCK = RewritingClassLoader.WITH_OWN_CLOCK;

    private final CallSiteRewriter rewriter = new CallSiteRewriter(RewritingClassLoader.FIXED_CLOCK, WITH_OWN_CLOCK);

    @ParameterizedTest(name = "{0}.{1} reads the redirected clock")
    @CsvSource({
        "MethodsAndInitializers, staticMethod",
        "MethodsAndInitializers, instanceMethod",
        "MethodsAndInitializers, constructor",
        "MethodsAndInitializers, staticInitializer",
        "LambdasAndInnerClasses, lambdaBody",
        "LambdasAndInnerClasses, anonymousClass",
        "LambdasAndInnerClasses, innerClass",
        "LambdasAndInnerClasses, methodReference",
        "TypeShapes, enumConstant",
        "TypeShapes, enumMethod",
        "TypeShapes, recordConstructor",
        "TypeShapes, recordMethod",
        "TypeShapes, interfaceDefault",
        "TypeShapes, interfaceStatic",
        "ControlFlow, tryBlock",
        "ControlFlow, catchBlock",
        "ControlFlow, finallyBlock",
        "ControlFlow, loop",
        "ControlFlow, switchInLoop",
        "ControlFlow, synchronizedBlock",
    })
    void everyShapeOfCallSiteReadsTheRedirectedClock(String fixture, String method) throws Exception {
        Class<?> rewritten = new RewritingClassLoader().loadClass(RewritingClassLoader.FIXTURES + fixture);

        assertEquals(FixedClock.MILLIS, invokeStatic(rewritten, method));
    }

    @Test
    void rewritesAClassWhoseClockReferenceNoMethodUsesAndCountsNoSitesInIt() {
        String name = "io/clockagent/agent/internal/generated/UnusedReference";
        byte[] bytes = GeneratedClasses.withUnusedClockReference(name);

        assertNotNull(rewriter.rewrite(bytes, false), "counting or not, the same classes are rewritten");
        assertEquals(List.of(), CallSiteRewriter.countSites(bytes, false, RewritingClassLoader.LIBRARY_CLOCKS));
    }

    @Test
    void theSameFixturesReadTheRealClockWhenNotRewritten() throws Exception {
        long before = System.currentTimeMillis();

        long direct = io.clockagent.agent.internal.fixtures.MethodsAndInitializers.staticMethod();

        assertTrue(direct >= before, "the fixture reads the real clock without the rewriter");
    }

    @Test
    void countsCallSitesAndMethodReferencesSeparately() {
        RewrittenClass lambdas = counted("LambdasAndInnerClasses");
        RewrittenClass controlFlow = counted("ControlFlow");

        assertEquals(1, lambdas.callSites(), "the lambda body; anonymous and inner classes are classes of their own");
        assertEquals(1, lambdas.methodReferences(), "System::currentTimeMillis");
        assertEquals(8, controlFlow.callSites(), "try, catch, finally (twice: normal and exceptional exit), loop,"
                + " two in the switch, synchronized");
        assertEquals(0, controlFlow.methodReferences());
    }

    @Test
    void attributesEachSiteToItsMethod() {
        RewrittenClass lambdas = counted("LambdasAndInnerClasses");

        assertEquals(List.of(
                new MethodCallSites("methodReference()J", 0, 1),
                new MethodCallSites("lambda$lambdaBody$0()J", 1, 0)), lambdas.methods());
    }

    @Test
    void leavesClassesWithoutClockReadsUntouched() {
        byte[] original = RewritingClassLoader.originalBytes(RewritingClassLoader.FIXTURES + "NoClockReads");

        assertNull(rewriter.rewrite(original, false), "the text 'currentTimeMillis' alone is not a call site");
    }

    @Test
    void changesNothingButTheAppendedConstantsAndTheMethodrefOwner() {
        byte[] original = RewritingClassLoader.originalBytes(RewritingClassLoader.FIXTURES + "ControlFlow");

        byte[] rewritten = rewriter.rewrite(original, false);

        int appended = rewritten.length - original.length;
        assertEquals(3 + RewritingClassLoader.FIXED_CLOCK.length() + 3, appended, "one Utf8 and one Class entry");
        int differentBytes = 0;
        int poolEnd = CallSiteRewriter.constantPool(new ClassFileCursor(original)).end();
        for (int i = 10; i < poolEnd; i++) {
            differentBytes += original[i] == rewritten[i] ? 0 : 1;
        }
        assertTrue(differentBytes <= 2, "only the Methodref's class index changes inside the pool: " + differentBytes);
        byte[] tail = new byte[original.length - poolEnd];
        System.arraycopy(rewritten, poolEnd + appended, tail, 0, tail.length);
        byte[] originalTail = new byte[tail.length];
        System.arraycopy(original, poolEnd, originalTail, 0, tail.length);
        assertArrayEquals(originalTail, tail, "fields, methods and attributes are byte for byte the same");
    }

    @Test
    void rewritingTwiceIsANoOp() {
        byte[] once = rewriter.rewrite(RewritingClassLoader.originalBytes(
                RewritingClassLoader.FIXTURES + "MethodsAndInitializers"), false);

        assertNull(rewriter.rewrite(once, false), "a rewritten class has no System.currentTimeMillis() reference left");
    }

    @Test
    void redirectsAnLdcMethodHandleConstant() throws Exception {
        Generated ldc = rewriteAndLoad("LdcHandle", GeneratedClasses::loadingClockHandle);

        assertEquals(1, ldc.counted().methodReferences());
        assertEquals(FixedClock.MILLIS, invokeStatic(ldc.loaded(), "now"));
    }

    @Test
    void redirectsALongDynamicConstantLoadedWithLdc2w() throws Exception {
        Generated condy = rewriteAndLoad("LongCondy", GeneratedClasses::loadingClockDynamicConstant);

        assertEquals(1, condy.counted().methodReferences(), "ldc2_w of a dynamic constant is a method reference");
        assertEquals(FixedClock.MILLIS, invokeStatic(condy.loaded(), "now"));
    }

    /** The library clocks' classes need not be there: a redirected use never names them to the JVM. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("libraryClocks")
    void redirectsEachLibraryClockCalledAndAsAMethodHandle(ClockMethod clock) throws Exception {
        String simpleName = clock.owner().replace('/', '_');
        Generated called = rewriteAndLoad("Calling_" + simpleName,
                name -> GeneratedClasses.callingClockMethod(name, clock.owner(), clock.name()));
        Generated handle = rewriteAndLoad("Handle_" + simpleName,
                name -> GeneratedClasses.loadingClockMethodHandle(name, clock.owner(), clock.name()));

        assertEquals(1, called.counted().callSites());
        assertEquals(FixedClock.MILLIS, invokeStatic(called.loaded(), "now"));
        assertEquals(1, handle.counted().methodReferences());
        assertEquals(FixedClock.MILLIS, invokeStatic(handle.loaded(), "now"));
    }

    static Stream<ClockMethod> libraryClocks() {
        return LibraryClock.ALL.stream().map(LibraryClock::method);
    }

    @Test
    void leavesTheLibraryClocksAloneWhereNoneIsInForceAndTheirClassesOtherMembersEverywhere() {
        ClockMethod hutool = LibraryClock.ALL.get(1).method();
        byte[] calling = GeneratedClasses.callingClockMethod("g/CallsHutool", hutool.owner(), hutool.name());
        byte[] otherMember = GeneratedClasses.callingClockMethod("g/CallsAnotherMember", hutool.owner(), "nowNanos");

        assertNull(new CallSiteRewriter(RewritingClassLoader.FIXED_CLOCK, ClockMethods.NONE).rewrite(calling, false));
        assertNull(rewriter.rewrite(otherMember, false), "only the clock method itself is redirected");
        assertNotNull(rewriter.rewrite(calling, false));
    }

    /** A clock method the service names ({@code clocks}), whose class need not be there either where it is static. */
    @Test
    void redirectsTheServicesOwnClockMethodWhereEveryUseOfItIsStatic() throws Exception {
        Generated called = rewriteAndLoad("OwnClockCalled",
                name -> GeneratedClasses.callingClockMethod(name, OWN_CLOCK.owner(), OWN_CLOCK.name()));
        Generated afterSwitches = rewriteAndLoad("OwnClockAfterSwitches",
                name -> GeneratedClasses.callingClockMethodAfterSwitches(name, OWN_CLOCK.owner(), OWN_CLOCK.name()));
        Generated handle = rewriteAndLoad("OwnClockHandle",
                name -> GeneratedClasses.loadingClockMethodHandle(name, OWN_CLOCK.owner(), OWN_CLOCK.name()));

        assertEquals(FixedClock.MILLIS, invokeStatic(called.loaded(), "now"));
        assertEquals(FixedClock.MILLIS, invokeStatic(afterSwitches.loaded(), "now"));
        assertEquals(FixedClock.MILLIS, invokeStatic(handle.loaded(), "now"));
    }

    @Test
    void leavesTheServicesOwnClockMethodWhereAUseOfItIsNotStatic() {
        CallSiteRewriter withOwn = new CallSiteRewriter(RewritingClassLoader.FIXED_CLOCK, WITH_OWN_CLOCK);

        assertNull(withOwn.rewrite(GeneratedClasses.invokingClockMethodVirtually("g/Virtual", OWN_CLOCK.owner(),
                OWN_CLOCK.name()), false), "an invokevirtual names an instance method");
        assertNull(withOwn.rewrite(GeneratedClasses.loadingVirtualClockMethodHandle("g/VirtualHandle",
                OWN_CLOCK.owner(), OWN_CLOCK.name()), false), "a REF_invokeVirtual handle names an instance method");
        assertNotNull(rewriter.rewrite(GeneratedClasses.invokingClockMethodVirtually("g/LibraryVirtual",
                "cn/hutool/core/date/SystemClock", "now"), false), "a library clock is known to be static");
    }

    @Test
    void aWithdrawnClockMethodIsNoLongerRedirected() {
        ClockMethods clocks = ClockMethods.libraryClocksAnd(List.of(OWN_CLOCK));
        CallSiteRewriter withOwn = new CallSiteRewriter(RewritingClassLoader.FIXED_CLOCK, clocks);
        byte[] calling = GeneratedClasses.callingClockMethod("g/Withdrawn", OWN_CLOCK.owner(), OWN_CLOCK.name());
        assertNotNull(withOwn.rewrite(calling, false));

        clocks.withdraw(clocks.methods().indexOf(OWN_CLOCK));

        assertNull(withOwn.rewrite(calling, false));
    }

    @Test
    void redirectsAMethodrefWhoseNamesAppearTwiceInThePool() throws Exception {
        Generated repeated = rewriteAndLoad("RepeatedNames", GeneratedClasses::callingClockThroughRepeatedNames);

        assertEquals(1, repeated.counted().callSites(),
                "the Methodref names System.currentTimeMillis through the second copies");
        assertEquals(FixedClock.MILLIS, invokeStatic(repeated.loaded(), "now"));
    }

    @ParameterizedTest(name = "class file version {0}")
    @ValueSource(ints = {52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69})
    void rewritesClassFilesOfEveryReleaseFrom8To25(int majorVersion) throws Exception {
        String name = "io.clockagent.agent.internal.generated.Version" + majorVersion;
        byte[] bytes = GeneratedClasses.callingClock(name.replace('.', '/'), majorVersion);

        byte[] rewritten = rewriter.rewrite(bytes, false);

        assertNotNull(rewritten);
        assertEquals(List.of(new MethodCallSites("now()J", 1, 0)),
                CallSiteRewriter.countSites(bytes, false, RewritingClassLoader.LIBRARY_CLOCKS));
        assertEquals(RewritingClassLoader.FIXED_CLOCK, ownerOfClockCall(rewritten));
        if (majorVersion <= 44 + Runtime.version().feature()) {
            Class<?> loaded = new RewritingClassLoader(Map.of(name, bytes)).loadClass(name);
            assertEquals(FixedClock.MILLIS, invokeStatic(loaded, "now"));
        }
    }

    /**
     * javac's output patched to each newer version is rewritten to exactly the bytes of the same class at javac's own
     * version, patched likewise; and what the JVM's verifier makes of it, with javac's version back: it loads it, and
     * the sites read the redirected clock. No JVM here loads class files this new, which is why the version goes back.
     */
    @ParameterizedTest(name = "{0}.{1}")
    @CsvSource({
        "MethodsAndInitializers, staticMethod",
        "LambdasAndInnerClasses, methodReference",
        "ControlFlow, loop",
    })
    void rewritesANewerClassFileWhoseTagsAreAllKnownAsTheSameClassOfAKnownVersion(String fixture, String method)
            throws Exception {
        String name = RewritingClassLoader.FIXTURES + fixture;
        byte[] javac = RewritingClassLoader.originalBytes(name);
        int javacMajorVersion = readU2(javac, 6);
        byte[] rewrittenAsJavacWroteIt = rewriter.rewrite(javac, false);
        for (int majorVersion : GeneratedClasses.NEWER_MAJOR_VERSIONS) {
            byte[] rewritten = rewriter.rewrite(GeneratedClasses.withMajorVersion(javac, majorVersion), false);

            assertArrayEquals(GeneratedClasses.withMajorVersion(rewrittenAsJavacWroteIt, majorVersion), rewritten,
                    "version " + majorVersion);
            byte[] loadable = GeneratedClasses.withMajorVersion(rewritten, javacMajorVersion);
            Class<?> loaded = new RewritingClassLoader(Map.of(name, loadable)).loadClass(name);
            assertEquals(FixedClock.MILLIS, invokeStatic(loaded, method), "version " + majorVersion);
        }
    }

    @ParameterizedTest(name = "class file version {0}, tag {1}")
    @CsvSource({"70, 21", "71, 2", "72, 13", "73, 14", "74, 0", "75, 255"})
    void refusesANewerClassFileWithAConstantOfATagItDoesNotKnowNamingTheVersionAndTheTag(int majorVersion, int tag) {
        byte[] bytes = GeneratedClasses.withUnknownConstant(GeneratedClasses.withMajorVersion(
                RewritingClassLoader.originalBytes(RewritingClassLoader.FIXTURES + "ControlFlow"), majorVersion), tag);

        NewerFormatException refused = assertThrows(NewerFormatException.class, () -> rewriter.rewrite(bytes, false));

        assertTrue(refused.getMessage().startsWith("class file version " + majorVersion + " has a constant of unknown"
                + " tag " + tag + " (entry "), refused.getMessage());
    }

    @Test
    void ignoresANewerClassFileWithAnUnknownConstantThatNeverMentionsTheClock() {
        byte[] bytes = GeneratedClasses.withUnknownConstant(GeneratedClasses.withoutClock("gen/FutureQuiet",
                GeneratedClasses.NEWER_MAJOR_VERSIONS.get(0)), 21);

        assertNull(rewriter.rewrite(bytes, false), "nothing to rewrite, so nothing refused");
    }

    @Test
    void refusesAClassFileOfAKnownVersionWithAnUnknownTagAsMalformed() {
        byte[] bytes = GeneratedClasses.withUnknownConstant(GeneratedClasses.callingClock("gen/Broken",
                CallSiteRewriter.NEWEST_KNOWN_MAJOR_VERSION), 21);

        ClassFileException refused = assertThrows(ClassFileException.class, () -> rewriter.rewrite(bytes, false));

        assertFalse(refused instanceof NewerFormatException, "reported class by class, as any malformed class");
        assertTrue(refused.getMessage().startsWith("unknown constant pool tag 21 at entry "), refused.getMessage());
    }

    @Test
    void refusesAClassWhoseConstantPoolIsFull() {
        byte[] bytes = GeneratedClasses.withFullConstantPool("gen/Full");

        ClassFileException refused = assertThrows(ClassFileException.class, () -> rewriter.rewrite(bytes, false));

        assertTrue(refused.getMessage().contains("constant pool is full"), refused.getMessage());
    }

    /** A generated class's sites as the rewriter counts them, and the class as a loader that rewrites it defines it. */
    private record Generated(RewrittenClass counted, Class<?> loaded) {
    }

    private static RewrittenClass counted(String fixture) {
        return new RewrittenClass(fixture, CallSiteRewriter.countSites(RewritingClassLoader.originalBytes(
                RewritingClassLoader.FIXTURES + fixture), false, RewritingClassLoader.LIBRARY_CLOCKS));
    }

    private Generated rewriteAndLoad(String simpleName, Function<String, byte[]> generateByInternalName)
            throws ClassNotFoundException {
        String name = "io.clockagent.agent.internal.generated." + simpleName;
        byte[] bytes = generateByInternalName.apply(name.replace('.', '/'));
        assertNotNull(rewriter.rewrite(bytes, false), name);
        return new Generated(new RewrittenClass(name,
                CallSiteRewriter.countSites(bytes, false, RewritingClassLoader.LIBRARY_CLOCKS)),
                new RewritingClassLoader(Map.of(name, bytes)).loadClass(name));
    }

    private static long invokeStatic(Class<?> type, String method) throws Exception {
        Method target = type.getMethod(method);
        return (long) target.invoke(null);
    }

    private static int readU2(byte[] bytes, int position) {
        return (bytes[position] & 0xff) << 8 | bytes[position + 1] & 0xff;
    }

    /** The owner named by the class's only {@code currentTimeMillis} call, as ASM reads it. */
    static String ownerOfClockCall(byte[] classFile) {
        String[] owner = new String[1];
        new ClassReader(classFile).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                    String[] exceptions) {
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitMethodInsn(int opcode, String methodOwner, String methodName, String methodDescriptor,
                            boolean isInterface) {
                        if (methodName.equals("currentTimeMillis")) {
                            owner[0] = methodOwner;
                        }
                    }

                    @Override
                    public void visitLdcInsn(Object value) {
                        if (value instanceof Handle && ((Handle) value).getName().equals("currentTimeMillis")) {
                            owner[0] = ((Handle) value).getOwner();
                        }
                    }
                };
            }
        }, 0);
        return owner[0];
    }
}
