package io.clockagent.it.support;

import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The three ways the agent starts, for tests about what differs underneath them: the native start through
 * {@code -agentpath}, the same native start from {@code -javaagent}'s premain (the default where the jar carries the
 * library), and {@code -javaagent}'s Java start, which {@code nativeFilter=false} asks for, with its Java transformer
 * and its ticker from the first class it rewrites.
 */
public enum AgentStart {

    AGENTPATH(AgentEntry.AGENTPATH, ""),
    JAVAAGENT_NATIVE(AgentEntry.JAVAAGENT, ""),
    JAVAAGENT_JAVA(AgentEntry.JAVAAGENT, ",nativeFilter=false");

    private final AgentEntry entry;
    private final String optionsAdded;

    AgentStart(AgentEntry entry, String optionsAdded) {
        this.entry = entry;
        this.optionsAdded = optionsAdded;
    }

    /** Starts the agent in {@code jvm} this way, with these options and what this way adds to them. */
    public ForkedJvm addTo(ForkedJvm jvm, String options) {
        return entry.addTo(jvm, options + optionsAdded);
    }

    /**
     * Each start on JDK 17 and 25, as {@code (int featureVersion, AgentStart start)}, for tests where the JDK matters
     * less than the time they take: the library loads one way below Java 24 and another from 24 on
     * ({@code NativeStartLibrary}), and two JDKs cover both. For
     * {@code @MethodSource("io.clockagent.it.support.AgentStart#onJdks17And25")}.
     */
    public static Stream<Arguments> onJdks17And25() {
        return Stream.of(Jdks.JDK_17, Jdks.JDK_25).flatMap(jdk -> Stream.of(values())
                .map(start -> Arguments.of(jdk, start)));
    }
}
