package io.clockagent.agent.internal;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Writes {@code java_contract.h}: everything of the agent's Java that its native library names, taken from the
 * compiled classes, so that the C code cannot drift from them. The classes the library loads, the methods and fields
 * it calls or binds, with descriptors made from their reflected types, and the constants both sides must agree on. A
 * member renamed or retyped in Java changes the header or fails the build here, never the library at run time.
 * Run by {@code agent/src/main/c/build.sh} at build time, against the agent's compiled classes, and never shipped.
 *
 * <p>Usage: {@code java -cp GENERATOR:CLASSES io.clockagent.agent.internal.JavaContractHeader OUTPUT_FILE}
 */
final class JavaContractHeader {

    private static final String AGENT = "io.clockagent.agent.";
    private static final String INTERNAL = AGENT + "internal.";

    private final CHeader header = new CHeader("CLOCK_AGENT_JAVA_CONTRACT_H",
            "JavaContractHeader.java from the agent's compiled classes");

    private JavaContractHeader() {
    }

    public static void main(String[] args) throws IOException, ReflectiveOperationException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: JavaContractHeader OUTPUT_FILE");
        }
        JavaContractHeader contract = new JavaContractHeader();
        contract.write();
        contract.header.write(Path.of(args[0]));
    }

    private void write() throws ReflectiveOperationException {
        Class<?> entry = type(INTERNAL + "nativeentry.NativeEntry");
        header.comment("The Java side: the entry the library starts it through, and what that returns");
        binaryName("JAVA_ENTRY_CLASS", entry);
        method("JAVA_ENTRY_START", entry, "start");
        Class<?> installation = type(INTERNAL + "install.Installation");
        binaryName("JAVA_INSTALLATION_CLASS", installation);
        method("JAVA_CLOCK_DEFINED", installation, "clockDefined");
        method("JAVA_REWROTE_NATIVELY", installation, "rewroteNatively");
        method("JAVA_LEFT_INSTANT_READS", installation, "leftInstantReadsNatively");
        method("JAVA_JMX_STARTING", installation, "jmxStarting");
        method("JAVA_DETACH_REQUESTED", installation, "detachRequested");

        header.comment("The natives the library binds in the Java side's loader");
        Class<?> calls = type(INTERNAL + "nativeentry.EntryCalls");
        binaryName("JAVA_CALLS_CLASS", calls);
        nativeMethod("JAVA_CLASSES_SCANNED", calls, "classesScanned");
        nativeMethod("JAVA_CLASSES_REWRITTEN", calls, "classesRewritten");
        nativeMethod("JAVA_RESTORE_CLASSES", calls, "restoreClasses");
        nativeMethod("JAVA_CLOCK_METHODS_REDIRECTED", calls, "clockMethodsRedirected");
        nativeMethod("JAVA_CLOCK_CLASSES_LOADED_FOR", calls, "clockClassesLoadedFor");
        Class<?> serviceCpuTime = type(INTERNAL + "caching.ServiceCpuTime");
        binaryName("JAVA_SERVICE_CPU_TIME_CLASS", serviceCpuTime);
        nativeMethod("JAVA_THREAD_CPU_NANOS", serviceCpuTime, "threadCpuNanos0");

        header.comment("The -javaagent entry's native start, and the outcomes of it that Java acts on");
        Class<?> nativeStart = type(INTERNAL + "install.NativeStart");
        nativeMethod("JAVA_NATIVE_START", nativeStart, "start");
        constant("JAVA_START_STOP_JVM", nativeStart, "STOP_JVM");
        constant("JAVA_START_IN_JAVA", nativeStart, "START_IN_JAVA");

        header.comment("The cached clock, as defined in java.lang: the ticker's access and the count of direct reads");
        Class<?> clock = type(AGENT + "bootstrap.CachedClock");
        method("JAVA_CLOCK_WRITE_ACCESS", clock, "writeAccess");
        field("JAVA_DIRECT_READS", clock, "DIRECT_READS");

        header.comment("What both halves must agree on");
        constant("JAVA_OLDEST_SUPPORTED_FEATURE", type(AGENT + "Internals"), "OLDEST_SUPPORTED_FEATURE");
        constant("JAVA_RETRANSFORM_BATCH_SIZE", type(INTERNAL + "install.LoadedClasses"), "BATCH_SIZE");
        Class<?> activeCopy = type(INTERNAL + "activecopy.ActiveCopy");
        constant("JAVA_ACTIVE_COPY_PROPERTY", activeCopy, "PROPERTY");
        constant("JAVA_DETACH_SIGNAL_INTERNAL_NAME", activeCopy, "DETACH_SIGNAL");
        header.define("JAVA_DETACHING_LOADER_SIGNATURE",
                CHeader.quoted(descriptor(type(AGENT + "AgentClassLoader"))));
        constant("JAVA_ALREADY_ACTIVE", type(INTERNAL + "install.Installer"), "ALREADY_ACTIVE");
        constant("JAVA_MBEAN_SERVER_INTERNAL_NAME", type(INTERNAL + "rewrite.ClassLoadSignals"), "MBEAN_SERVER_CLASS");
        constant("JAVA_JAR_FILE_NAME", type(INTERNAL + "install.NativeLibraries"), "AGENT_JAR_NAME");
        constant("JAVA_DETACH_WAIT_MOST_SECONDS", type(INTERNAL + "rewrite.OpenDefinitions"), "WAIT_MOST_SECONDS");
        constant("JAVA_DEFINITIONS_UNDER_WAY_FORMAT", type(INTERNAL + "rewrite.OpenDefinitions"), "UNDER_WAY_FORMAT");
    }

    /** A class of the agent's, not initialized: some need what only an agent's JVM has. */
    private static Class<?> type(String binaryName) throws ClassNotFoundException {
        return Class.forName(binaryName, false, JavaContractHeader.class.getClassLoader());
    }

    private void binaryName(String macro, Class<?> type) {
        header.define(macro, CHeader.quoted(type.getName()));
    }

    /** The one method of this name the class declares: its name and descriptor, as JNI looks it up. */
    private void method(String macro, Class<?> owner, String name) throws NoSuchMethodException {
        define(macro, only(owner, name, false));
    }

    /** The one native method of this name the class declares, which the library binds. */
    private void nativeMethod(String macro, Class<?> owner, String name) throws NoSuchMethodException {
        define(macro, only(owner, name, true));
    }

    private static Method only(Class<?> owner, String name, boolean natives) throws NoSuchMethodException {
        List<Method> named = Arrays.stream(owner.getDeclaredMethods()).filter(method -> method.getName().equals(name)
                && (!natives || Modifier.isNative(method.getModifiers()))).collect(Collectors.toList());
        if (named.size() != 1) {
            throw new NoSuchMethodException(owner.getName() + " declares " + named.size() + (natives ? " native" : "")
                    + " methods " + name);
        }
        return named.get(0);
    }

    private void define(String macro, Method method) {
        String name = method.getName();
        String parameters = Arrays.stream(method.getParameterTypes()).map(JavaContractHeader::descriptor)
                .collect(Collectors.joining());
        header.define(macro + "_NAME", CHeader.quoted(name))
                .define(macro + "_DESCRIPTOR", CHeader.quoted("(" + parameters + ")"
                        + descriptor(method.getReturnType())));
    }

    private void field(String macro, Class<?> owner, String name) throws NoSuchFieldException {
        Field field = owner.getDeclaredField(name);
        header.define(macro + "_NAME", CHeader.quoted(name))
                .define(macro + "_DESCRIPTOR", CHeader.quoted(descriptor(field.getType())));
    }

    /** A static final int or String: its value. */
    private void constant(String macro, Class<?> owner, String name) throws ReflectiveOperationException {
        Field field = owner.getDeclaredField(name);
        if (!Modifier.isStatic(field.getModifiers()) || !Modifier.isFinal(field.getModifiers())) {
            throw new NoSuchFieldException(owner.getName() + "." + name + " is no constant");
        }
        field.setAccessible(true);
        Object value = field.get(null);
        header.define(macro, value instanceof String ? CHeader.quoted((String) value) : (Integer) value);
    }

    /** The type's descriptor, as in a class file. */
    private static String descriptor(Class<?> type) {
        if (type.isArray()) {
            return type.getName().replace('.', '/');
        }
        if (!type.isPrimitive()) {
            return "L" + type.getName().replace('.', '/') + ";";
        }
        return String.valueOf("ZBCSIJFDV".charAt(List.of(boolean.class, byte.class, char.class, short.class,
                int.class, long.class, float.class, double.class, void.class).indexOf(type)));
    }
}
