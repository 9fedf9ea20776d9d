package io.clockagent.agent.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Holds the native library's files, each a room of its own ({@code name.c} with its {@code name.h}, or a header alone),
 * to the library headers their first comment says they may include ({@code May include: a.h, b.h.}), and those to a
 * graph without cycles, whose top is the entries: what {@link RoomDependenciesTest} is to the Java rooms. Headers the
 * build writes from the Java classes (the option grammar, the contract) are no rooms: every file may include them.
 */
class NativeRoomDependenciesTest {

    private static final Path SOURCES = Path.of("src/main/c");
    /** The entries: Agent_OnLoad and Agent_OnAttach, and the -javaagent entry's JNI start; nothing includes them. */
    private static final Set<String> ENTRY_ROOMS = Set.of("agent_entry", "java_agent_start");
    private static final Pattern MAY_INCLUDE = Pattern.compile("May include: ([a-z_., ]+)\\.\\n");
    private static final Pattern INCLUDE = Pattern.compile("^#include \"([a-z_]+\\.h)\"", Pattern.MULTILINE);

    @Test
    void everyFileIncludesExactlyWhatItsFirstCommentSays() throws IOException {
        for (Path source : files(".c")) {
            String text = Files.readString(source);
            String firstComment = text.substring(0, Math.max(0, text.indexOf("*/")));
            Matcher declared = MAY_INCLUDE.matcher(firstComment.replaceAll("\\n \\* ", " ") + "\n");
            assertTrue(declared.find(), source + ": its first comment does not say \"May include: a.h, b.h.\"");
            assertEquals(new TreeSet<>(List.of(declared.group(1).split(", "))), libraryIncludes(source),
                    source + ": the library headers it may include (expected) and includes (actual)");
        }
    }

    @Test
    void theRoomsFormNoCycleAndTheEntriesAreOnTop() throws IOException {
        Map<String, Set<String>> uses = new TreeMap<>();
        for (Path file : files(".c", ".h")) {
            uses.computeIfAbsent(room(file), room -> new TreeSet<>()).addAll(libraryIncludes(file).stream()
                    .map(header -> header.substring(0, header.length() - 2)).collect(Collectors.toSet()));
        }
        uses.forEach((room, used) -> used.remove(room));
        List<String> order = new ArrayList<>();
        Set<String> remaining = new TreeSet<>(uses.keySet());
        while (!remaining.isEmpty()) {
            List<String> leaves = remaining.stream().filter(room -> order.containsAll(uses.get(room)))
                    .collect(Collectors.toList());
            assertTrue(!leaves.isEmpty(), "an include cycle among " + remaining + ": " + uses);
            order.addAll(leaves);
            remaining.removeAll(leaves);
        }
        for (Map.Entry<String, Set<String>> room : uses.entrySet()) {
            if (!room.getKey().equals("java_agent_start")) {
                assertTrue(room.getValue().stream().noneMatch(ENTRY_ROOMS::contains),
                        room.getKey() + " includes an entry: " + room.getValue());
            }
        }
        assertTrue(uses.keySet().containsAll(ENTRY_ROOMS), "the entries are rooms: " + uses.keySet());
    }

    /** The headers of this folder that a file includes: the library's own, not the system's or the generated. */
    private static Set<String> libraryIncludes(Path file) throws IOException {
        Set<String> included = new TreeSet<>();
        Matcher include = INCLUDE.matcher(Files.readString(file));
        while (include.find()) {
            if (Files.exists(SOURCES.resolve(include.group(1)))) {
                included.add(include.group(1));
            }
        }
        return included;
    }

    private static String room(Path file) {
        String name = file.getFileName().toString();
        return name.substring(0, name.lastIndexOf('.'));
    }

    /** The library's files with any of these endings. */
    private static List<Path> files(String... endings) throws IOException {
        try (Stream<Path> files = Files.list(SOURCES)) {
            List<Path> found = files.filter(file -> Stream.of(endings).anyMatch(file.toString()::endsWith)).sorted()
                    .collect(Collectors.toList());
            assertTrue(!found.isEmpty(), "no C files under " + SOURCES.toAbsolutePath());
            return found;
        }
    }
}
