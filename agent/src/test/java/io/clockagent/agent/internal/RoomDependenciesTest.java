package io.clockagent.agent.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
 * Holds the agent's rooms, the packages under {@code io.clockagent.agent.internal}, to what their
 * {@code package-info.java} says they may depend on, and that to a graph without cycles. The dependencies are read
 * from the compiled classes, where every class a room uses is named, however its source names it.
 */
class RoomDependenciesTest {

    /**
     * The rooms of the entry points, -javaagent's and the native start's, which no other room may call; the native
     * start's builds on the one installation in -javaagent's.
     */
    private static final Set<String> ENTRY_ROOMS = Set.of("install", "nativeentry");
    private static final Path SOURCES = Path.of("src/main/java/io/clockagent/agent/internal");
    private static final Path CLASSES = Path.of("target/classes/io/clockagent/agent");
    private static final Pattern MAY_DEPEND_ON = Pattern.compile("<p>May depend on: ([a-z, ]+)\\.");
    private static final Pattern ROOM_REFERENCE = Pattern.compile("io/clockagent/agent/internal/([a-z]+)/");
    private static final Pattern AGENT_REFERENCE = Pattern.compile("io/clockagent/agent/([a-z]+/)*[A-Za-z$0-9]+");

    @Test
    void everyRoomDependsOnExactlyWhatItsPackageInfoSays() throws IOException {
        Map<String, Set<String>> declared = declared();
        Map<String, Set<String>> found = new TreeMap<>();
        for (String room : declared.keySet()) {
            found.put(room, roomsReferencedBy(CLASSES.resolve("internal").resolve(room), room));
        }
        assertEquals(declared, found, "each room's dependencies, as package-info.java says them (expected) and as"
                + " its classes have them (actual)");
    }

    @Test
    void theRoomsFormNoCycle() throws IOException {
        Map<String, Set<String>> declared = declared();
        List<String> order = new ArrayList<>();
        Set<String> remaining = new TreeSet<>(declared.keySet());
        while (!remaining.isEmpty()) {
            List<String> leaves = remaining.stream()
                    .filter(room -> order.containsAll(declared.get(room))).collect(Collectors.toList());
            assertTrue(!leaves.isEmpty(), "a cycle among " + remaining + ": " + declared);
            order.addAll(leaves);
            remaining.removeAll(leaves);
        }
        assertTrue(order.subList(order.size() - ENTRY_ROOMS.size(), order.size()).containsAll(ENTRY_ROOMS),
                "the entries' rooms depend on the most: " + order);
    }

    @Test
    void noRoomButAnEntrysDependsOnAnEntrysRoom() throws IOException {
        for (Map.Entry<String, Set<String>> room : declared().entrySet()) {
            assertTrue(ENTRY_ROOMS.contains(room.getKey()) || room.getValue().stream().noneMatch(ENTRY_ROOMS::contains),
                    room.getKey() + " depends on an entry's room: " + room.getValue());
        }
    }

    @Test
    void theClassesDefinedInJavaLangReferToNothingOfTheAgent() throws IOException {
        Path bootstrap = CLASSES.resolve("bootstrap");
        try (Stream<Path> classes = Files.list(bootstrap)) {
            for (Path classFile : (Iterable<Path>) classes::iterator) {
                Matcher reference = AGENT_REFERENCE.matcher(text(classFile));
                while (reference.find()) {
                    assertTrue(reference.group().startsWith("io/clockagent/agent/bootstrap/"),
                            classFile.getFileName() + " refers to " + reference.group());
                }
            }
        }
    }

    /** Each room by its folder, with the rooms its package-info.java names. */
    private static Map<String, Set<String>> declared() throws IOException {
        Map<String, Set<String>> declared = new TreeMap<>();
        try (Stream<Path> rooms = Files.list(SOURCES)) {
            for (Path room : (Iterable<Path>) rooms.filter(Files::isDirectory)::iterator) {
                Path packageInfo = room.resolve("package-info.java");
                assertTrue(Files.exists(packageInfo), room.getFileName() + " has no package-info.java");
                Matcher line = MAY_DEPEND_ON.matcher(Files.readString(packageInfo).replaceAll("\\s*\\n\\s*\\* ", " "));
                assertTrue(line.find(), packageInfo + " does not say \"<p>May depend on: ROOM, ROOM.\" (or nothing)");
                Set<String> dependencies = new TreeSet<>();
                for (String dependency : line.group(1).split(", ")) {
                    if (!dependency.equals("nothing")) {
                        dependencies.add(dependency);
                    }
                }
                declared.put(room.getFileName().toString(), dependencies);
            }
        }
        assertTrue(declared.size() > 1, "no rooms under " + SOURCES.toAbsolutePath());
        for (Set<String> dependencies : declared.values()) {
            assertTrue(declared.keySet().containsAll(dependencies), "not a room in " + dependencies);
        }
        return declared;
    }

    private static Set<String> roomsReferencedBy(Path roomClasses, String room) throws IOException {
        Set<String> referenced = new TreeSet<>();
        try (Stream<Path> classes = Files.list(roomClasses)) {
            for (Path classFile : (Iterable<Path>) classes::iterator) {
                Matcher reference = ROOM_REFERENCE.matcher(text(classFile));
                while (reference.find()) {
                    referenced.add(reference.group(1));
                }
            }
        }
        referenced.remove(room);
        return referenced;
    }

    /** Class names in a class file are ASCII in its modified UTF-8, so one byte per character finds them. */
    private static String text(Path classFile) throws IOException {
        return new String(Files.readAllBytes(classFile), StandardCharsets.ISO_8859_1);
    }
}
