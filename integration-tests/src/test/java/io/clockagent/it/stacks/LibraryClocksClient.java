package io.clockagent.it.stacks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The library clocks service's requests, as one connection sends them (see the service's {@code Session}), each
 * answer checked: the ids of every {@code ids} answer increase and differ within it, and each batch of a generator
 * lies above the one this connection took before. Counts what it asked of each generator. One thread at a time.
 */
final class LibraryClocksClient implements AutoCloseable {

    /** The generators, by the names the service answers with. */
    static final List<String> GENERATORS = List.of("mybatisPlus", "hutool");
    private static final long PACE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final LineClient line;
    private final Map<String, Long> greatestIds = new LinkedHashMap<>();
    private long idsAsked;

    LibraryClocksClient(int port) throws IOException {
        line = new LineClient(port);
    }

    /** Takes {@code count} ids of each generator, checking the answer. */
    void ids(int count) throws IOException {
        String answer = line.ask("ids " + count);
        String[] words = answer.split(" ");
        assertEquals(1 + GENERATORS.size() * 6, words.length, answer);
        assertEquals("ids", words[0], answer);
        for (int g = 0; g < GENERATORS.size(); g++) {
            String[] batch = Arrays.copyOfRange(words, 1 + 6 * g, 7 + 6 * g);
            String generator = GENERATORS.get(g);
            assertEquals(generator, batch[0], answer);
            assertEquals("increasing=true", batch[2], generator + ": " + answer);
            assertEquals("unique=true", batch[3], generator + ": " + answer);
            long min = Long.parseLong(batch[4].substring("min=".length()));
            long max = Long.parseLong(batch[5].substring("max=".length()));
            Long before = greatestIds.get(generator);
            assertTrue(before == null || min > before, generator + ": the batch from " + min + " is not above the id "
                    + before + " this connection took before: " + answer);
            greatestIds.put(generator, max);
        }
        idsAsked += count;
    }

    /** A request every millisecond, {@code ids 1}, for {@code millis}: a service's modest traffic. */
    void paced(long millis) throws IOException {
        long nextNanos = System.nanoTime();
        long endNanos = nextNanos + TimeUnit.MILLISECONDS.toNanos(millis);
        while (nextNanos - endNanos < 0) {
            ids(1);
            nextNanos += PACE_NANOS;
            LockSupport.parkNanos(nextNanos - System.nanoTime());
        }
    }

    /** Ids and clock reads flat out in the service for {@code millis}; the ids it took of each generator. */
    long burst(long millis) throws IOException {
        String answer = line.ask("burst " + millis);
        assertTrue(answer.startsWith("burst iterations="), answer);
        long iterations = Long.parseLong(answer.substring("burst iterations=".length()));
        idsAsked += iterations;
        return iterations;
    }

    /** The names of the service's live threads, as it lists them. */
    List<String> threads() throws IOException {
        String answer = line.ask("threads");
        assertTrue(answer.startsWith("threads\t"), answer);
        return List.of(answer.substring("threads\t".length()).split("\t"));
    }

    /** The ids this connection asked of each generator, taken or refused. */
    long idsAsked() {
        return idsAsked;
    }

    @Override
    public void close() throws IOException {
        line.close();
    }
}
