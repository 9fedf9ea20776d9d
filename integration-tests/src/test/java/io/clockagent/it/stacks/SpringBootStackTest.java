package io.clockagent.it.stacks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Spring Boot 3 web application, as its executable jar ({@code stacks/spring-boot-service}): greetings as JSON
 * through Spring MVC and Jackson, from a cache whose entries expire, each request logged, a task on Spring's
 * scheduler. Spring Boot 3 needs Java 17, so on 11 the run is skipped with a notice.
 */
class SpringBootStackTest extends StackUnderAgentTest {

    private static final int CLIENTS = 4;
    private static final int REQUESTS_PER_CLIENT = 250;
    private static final int NAMES = 20;
    /** Twice the cache's 200 ms time to live. */
    private static final long EXPIRY_WAIT_MILLIS = 400;
    private static final Pattern GREETING = Pattern.compile("\\{\"greeting\":\"hello ([^\"]+)\",\"cached\":(true|false),"
            + "\"servedAtMillis\":(\\d+),\"lastHeartbeatMillis\":(\\d+)}");

    @Override
    StackService service() {
        return new StackService("spring-boot-service", 17, List.of("org.springframework.", "org.apache.",
                "com.fasterxml.", "ch.qos.logback.", "org.slf4j."));
    }

    @Override
    Map<String, Long> drive(int port) throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        ConcurrentClients.run(CLIENTS, clientNumber -> {
            for (int i = 0; i < REQUESTS_PER_CLIENT; i++) {
                String name = "n" + (i % NAMES);
                Matcher greeting = greet(client, port, name);
                assertEquals(name, greeting.group(1));
                assertTrue(Long.parseLong(greeting.group(3)) > 0, greeting.group());
            }
        });
        // An entry is served from the cache until it expires, and made anew after.
        greet(client, port, "expiry");
        Thread.sleep(EXPIRY_WAIT_MILLIS);
        assertFalse(Boolean.parseBoolean(greet(client, port, "expiry").group(2)), "expired after its time to live");
        assertTrue(Boolean.parseBoolean(greet(client, port, "expiry").group(2)), "cached again right after");
        return Map.of("requests", (long) CLIENTS * REQUESTS_PER_CLIENT + 3);
    }

    @Override
    void assertOtherCounts(Map<String, Long> counts, String describe) {
        assertEquals(counts.get("requests"), counts.get("cacheHits") + counts.get("cacheMisses"), describe);
        assertTrue(counts.get("cacheMisses") >= NAMES + 2, "each name made once at least, and expiry twice: "
                + counts);
        assertTrue(counts.get("cacheHits") > 0, counts.toString());
        assertTrue(counts.get("heartbeats") > 0, "the scheduled task ran: " + counts);
    }

    private static Matcher greet(HttpClient client, int port, String name) throws IOException, InterruptedException {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/greet?name=" + name)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        Matcher greeting = GREETING.matcher(response.body());
        assertTrue(greeting.matches(), response.body());
        return greeting;
    }
}
