package io.clockagent.it.stacks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Kotlin service on kotlinx-coroutines ({@code stacks/kotlin-service}): work under {@code withTimeout}, timed
 * with {@code measureTimeMillis} and stamped by an inline function, and a clock read in a lambda.
 */
class KotlinStackTest extends StackUnderAgentTest {

    private static final int CLIENTS = 4;
    private static final int WORK_PER_CLIENT = 200;
    /** Below the service's 200 ms deadline, and far above it. */
    private static final long QUICK_MILLIS = 1;
    private static final long LATE_MILLIS = 5_000;
    private static final int LATE_REQUESTS = 3;
    private static final Pattern DONE = Pattern.compile("done " + QUICK_MILLIS + " took (\\d+) at (\\d+)");

    @Override
    StackService service() {
        return new StackService("kotlin-service", 11, List.of("kotlinx.", "kotlin."));
    }

    @Override
    Map<String, Long> drive(int port) throws Exception {
        ConcurrentClients.run(CLIENTS, client -> {
            try (LineClient service = new LineClient(port)) {
                long lastStamp = 0;
                for (int i = 0; i < WORK_PER_CLIENT; i++) {
                    String answer = service.ask("work " + QUICK_MILLIS);
                    Matcher done = DONE.matcher(answer);
                    assertTrue(done.matches(), answer);
                    long stamp = Long.parseLong(done.group(2));
                    assertTrue(stamp >= lastStamp, "the stamps of one client's requests never go back: "
                            + lastStamp + " then " + stamp);
                    lastStamp = stamp;
                }
                long stamp = Long.parseLong(service.ask("stamp").substring("stamp ".length()));
                assertTrue(stamp >= lastStamp, lastStamp + " then " + stamp);
            }
        });
        try (LineClient service = new LineClient(port)) {
            for (int i = 0; i < LATE_REQUESTS; i++) {
                assertEquals("timeout " + LATE_MILLIS, service.ask("work " + LATE_MILLIS));
            }
        }
        return Map.of("requests", (long) CLIENTS * (WORK_PER_CLIENT + 1) + LATE_REQUESTS,
                "timedOut", (long) LATE_REQUESTS);
    }
}
