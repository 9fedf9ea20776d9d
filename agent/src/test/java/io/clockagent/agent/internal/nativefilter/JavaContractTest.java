package io.clockagent.agent.internal.nativefilter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Holds the native library to one contract with the agent's Java: {@code java_contract.h}, which the build writes from
 * the compiled classes. The library's sources name nothing of the agent's Java but through it, use all of it, and
 * export only JNI functions that a native method of the agent's classes binds to.
 */
class JavaContractTest {

    private static final Path SOURCES = Path.of("src/main/c");
    private static final Path CONTRACT = Path.of("target/generated-sources/c/java_contract.h");
    /** A string literal that names a class, member or property of the agent's, as a hand copy would. */
    private static final Pattern AGENT_NAME = Pattern.compile("\"[^\"\\n]*(io[/.]clockagent|clockagent\\.)");
    private static final Pattern MACRO = Pattern.compile("^#define (JAVA_[A-Z_]+) ", Pattern.MULTILINE);
    /** Java_ + the class's binary name with '_' for '.' + '_' + the method: the JNI short name, no escapes needed. */
    private static final Pattern JNI_NAME = Pattern.compile("Java_([A-Za-z0-9_]+)_([A-Za-z0-9]+)");
    /** What the build renames the class that loads the library from Java 24 on into (NativeStart). */
    private static final String RENAMED_LIBRARY_CLASS = "java.lang.ClockAgentNativeStartLibrary";
    private static final String LIBRARY_CLASS = "io.clockagent.agent.bootstrap.NativeStartLibrary";

    @Test
    void theSourcesNameTheAgentsJavaOnlyThroughTheContract() throws IOException {
        List<String> handCopies = new ArrayList<>();
        for (Path source : sources()) {
            Matcher name = AGENT_NAME.matcher(Files.readString(source));
            while (name.find()) {
                handCopies.add(source.getFileName() + ": " + name.group());
            }
        }
        assertEquals(List.of(), handCopies, "names of the agent's Java in the C sources, not from java_contract.h");
    }

    @Test
    void theSourcesUseAllOfTheContract() throws IOException {
        Set<String> unused = new TreeSet<>();
        Matcher macro = MACRO.matcher(Files.readString(CONTRACT));
        while (macro.find()) {
            unused.add(macro.group(1));
        }
        assertTrue(unused.size() > 10, "java_contract.h defines too little: " + unused);
        for (Path source : sources()) {
            String text = Files.readString(source);
            unused.removeIf(name -> Pattern.compile("\\b" + name + "(_NAME|_DESCRIPTOR)?\\b").matcher(text).find());
        }
        assertEquals(Set.of(), unused, "macros of java_contract.h that no C source uses");
    }

    @Test
    void everyExportedJniFunctionBindsANativeMethodOfTheAgent() throws Exception {
        for (Map.Entry<String, Path> library : BuiltLibraries.carried().entrySet()) {
            Set<String> exported = ElfDependencies.read(Files.readAllBytes(library.getValue())).definedSymbols.stream()
                    .filter(symbol -> symbol.startsWith("Java_")).collect(Collectors.toCollection(TreeSet::new));
            assertTrue(!exported.isEmpty(), library.getKey() + " exports no JNI function");
            for (String symbol : exported) {
                Matcher name = JNI_NAME.matcher(symbol);
                assertTrue(name.matches(), symbol);
                String owner = name.group(1).replace('_', '.');
                Class<?> declaring = Class.forName(owner.equals(RENAMED_LIBRARY_CLASS) ? LIBRARY_CLASS : owner, false,
                        getClass().getClassLoader());
                assertTrue(Stream.of(declaring.getDeclaredMethods()).anyMatch(method -> isNative(method)
                        && method.getName().equals(name.group(2))), library.getKey() + " exports " + symbol
                        + ", but " + declaring.getName() + " declares no native method " + name.group(2));
            }
        }
    }

    @Test
    void theRenamedLibraryClassIsTheOneNativeStartDefines() throws ReflectiveOperationException {
        Field renamed = Class.forName("io.clockagent.agent.internal.install.NativeStart", false,
                getClass().getClassLoader())
                .getDeclaredField("LIBRARY_INTERNAL_NAME");
        renamed.setAccessible(true);
        assertTrue(Modifier.isStatic(renamed.getModifiers()));
        assertEquals(RENAMED_LIBRARY_CLASS, ((String) renamed.get(null)).replace('/', '.'));
    }

    private static boolean isNative(Method method) {
        return Modifier.isNative(method.getModifiers());
    }

    private static List<Path> sources() throws IOException {
        try (Stream<Path> files = Files.list(SOURCES)) {
            return files.filter(file -> file.toString().endsWith(".c") || file.toString().endsWith(".h")).sorted()
                    .collect(Collectors.toList());
        }
    }
}
