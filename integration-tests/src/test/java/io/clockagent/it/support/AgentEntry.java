package io.clockagent.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The agent's two ways in: {@code -javaagent:clock-agent.jar} and {@code -agentpath:libclockagent.so} with the jar
 * beside the library. Tests about what the agent does, where the two differ underneath (the C half of
 * {@code -agentpath} reads the options, filters and rewrites, and its Java half reports), run through both.
 */
public enum AgentEntry {

    JAVAAGENT("-javaagent") {
        @Override
        public String option(String options) {
            return "-javaagent:" + BuildOutputs.agentJar() + (options == null ? "" : "=" + options);
        }
    },
    AGENTPATH("-agentpath") {
        @Override
        public String option(String options) {
            NativeLibraries.requireForThisMachine();
            return "-agentpath:" + libraryBesideJar() + (options == null ? "" : "=" + options);
        }
    };

    private static final String LIBRARY_FILE_NAME = "libclockagent.so";
    /** Written once per test JVM; see {@link #libraryBesideJar}. */
    private static Path library;

    private final String name;

    AgentEntry(String name) {
        this.name = name;
    }

    /** The JVM option that starts the agent through this entry, with these options (null for none). */
    public abstract String option(String options);

    /** Starts the agent in {@code jvm} through this entry, with these options (null for none). */
    public ForkedJvm addTo(ForkedJvm jvm, String options) {
        return jvm.option(option(options));
    }

    /**
     * Each entry on JDK 17 and 25, as {@code (int featureVersion, AgentEntry entry)}, for tests where the JDK matters
     * less than the time they take: the library loads one way below Java 24 and another from 24 on
     * ({@code NativeStartLibrary}), and two JDKs cover both. For
     * {@code @MethodSource("io.clockagent.it.support.AgentEntry#onJdks17And25")}.
     */
    public static Stream<Arguments> onJdks17And25() {
        return Stream.of(Jdks.JDK_17, Jdks.JDK_25).flatMap(jdk -> Stream.of(values())
                .map(entry -> Arguments.of(jdk, entry)));
    }

    /**
     * Each entry once, {@code -javaagent} on JDK 17 and {@code -agentpath} on JDK 25, as {@code (int featureVersion,
     * AgentEntry entry)}, for a long run whose every JDK and entry a light run covers already. For
     * {@code @MethodSource("io.clockagent.it.support.AgentEntry#eachOnceOnJdks17And25")}.
     */
    public static Stream<Arguments> eachOnceOnJdks17And25() {
        return Stream.of(Arguments.of(Jdks.JDK_17, JAVAAGENT), Arguments.of(Jdks.JDK_25, AGENTPATH));
    }

    @Override
    public String toString() {
        return name;
    }

    /**
     * This machine's library from the agent jar, next to a copy of the jar, in a folder of this test JVM's own: what
     * the jar's {@code agentpath} command writes ({@link LibraryBesideJar} runs the command itself).
     */
    private static synchronized Path libraryBesideJar() {
        if (library == null) {
            try {
                Path folder = Files.createDirectories(BuildOutputs.testClasses().resolveSibling(
                        "agentpath-" + ProcessHandle.current().pid()));
                Files.copy(BuildOutputs.agentJar(), folder.resolve("clock-agent.jar"),
                        StandardCopyOption.REPLACE_EXISTING);
                library = Files.write(folder.resolve(LIBRARY_FILE_NAME),
                        NativeLibraries.bytes(NativeLibraries.thisMachine()));
            } catch (IOException unwritable) {
                throw new UncheckedIOException(unwritable);
            }
        }
        return library;
    }
}
