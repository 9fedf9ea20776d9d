package io.clockagent.it.stacks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The key-value service on HikariCP over H2, logging through Logback's async appender into rolling files
 * ({@code stacks/pool-service}): every value stored is read back, every request is logged, no log line is lost, and
 * the logs roll over.
 */
class PoolStackTest extends StackUnderAgentTest {

    private static final int CLIENTS = 4;
    private static final int ENTRIES_PER_CLIENT = 250;

    @Override
    StackService service() {
        return new StackService("pool-service", 11, List.of("com.zaxxer.hikari.", "org.h2.", "ch.qos.logback.",
                "org.slf4j."));
    }

    @Override
    String[] jvmOptions(Path runDirectory) {
        return new String[] {"-Dstack.logDirectory=" + runDirectory.resolve("logs")};
    }

    @Override
    Map<String, Long> drive(int port) throws Exception {
        ConcurrentClients.run(CLIENTS, client -> {
            try (LineClient service = new LineClient(port)) {
                for (int i = 0; i < ENTRIES_PER_CLIENT; i++) {
                    assertEquals("ok", service.ask("put key-" + client + "-" + i + " value-" + i));
                }
                for (int i = 0; i < ENTRIES_PER_CLIENT; i++) {
                    String[] value = service.ask("get key-" + client + "-" + i).split(" ");
                    assertEquals(3, value.length, String.join(" ", value));
                    assertEquals("value-" + i, value[1]);
                    assertTrue(Long.parseLong(value[2]) >= 0, "written before it was read: " + value[2]);
                }
            }
        });
        try (LineClient service = new LineClient(port)) {
            assertEquals("missing", service.ask("get never-written"));
        }
        long entries = (long) CLIENTS * ENTRIES_PER_CLIENT;
        return Map.of("puts", entries, "gets", entries + 1, "rows", entries, "failures", 0L);
    }

    @Override
    void assertOtherCounts(Map<String, Long> counts, String describe) {
        assertTrue(counts.get("poolConnections") >= 1, counts + "\n" + describe);
    }

    /** Every request is in the logs once, though the async appender queued them and the files rolled over. */
    @Override
    void assertAfterExit(Path runDirectory, Map<String, Long> counts) throws IOException {
        List<Path> logs;
        try (Stream<Path> files = Files.list(runDirectory.resolve("logs"))) {
            logs = files.filter(file -> file.getFileName().toString().startsWith("requests")).toList();
        }
        long puts = 0;
        long gets = 0;
        for (Path log : logs) {
            for (String line : Files.readAllLines(log)) {
                puts += line.contains(" put key-") ? 1 : 0;
                gets += line.contains(" get ") ? 1 : 0;
            }
        }
        assertEquals(counts.get("puts"), puts, "put lines in " + logs);
        assertEquals(counts.get("gets"), gets, "get lines in " + logs);
        assertTrue(logs.size() > 1, "the logs rolled over: " + logs);
    }
}
