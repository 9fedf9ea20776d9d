package io.clockagent.it.stacks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

/**
 * The Netty HTTP service ({@code stacks/netty-service}): echoes, requests past their deadline answered with 504,
 * idle connections closed.
 */
class NettyStackTest extends StackUnderAgentTest {

    private static final int CLIENTS = 4;
    private static final int ECHOES_PER_CLIENT = 250;
    private static final int QUICK_DELAYS = 20;
    /** Below the service's 250 ms deadline, and far above it. */
    private static final long QUICK_DELAY_MILLIS = 5;
    private static final long LATE_DELAY_MILLIS = 5_000;
    private static final int LATE_DELAYS = 3;
    private static final int IDLE_CONNECTIONS = 3;
    /** The service closes a connection idle for 300 ms; a liveness bound, far above that. */
    private static final int IDLE_CLOSE_PATIENCE_MILLIS = 10_000;

    @Override
    StackService service() {
        return new StackService("netty-service", 11, List.of("io.netty."));
    }

    @Override
    Map<String, Long> drive(int port) throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        ConcurrentClients.run(CLIENTS, clientNumber -> {
            for (int i = 0; i < ECHOES_PER_CLIENT; i++) {
                String text = "c" + clientNumber + "-" + i;
                HttpResponse<String> echo = get(client, port, "/echo?text=" + text);
                assertEquals(200, echo.statusCode());
                assertEquals(text, echo.body());
                long received = Long.parseLong(echo.headers().firstValue("X-Received-Millis").orElseThrow());
                long answered = Long.parseLong(echo.headers().firstValue("X-Answered-Millis").orElseThrow());
                assertTrue(answered >= received, received + " then " + answered);
            }
        });
        for (int i = 0; i < QUICK_DELAYS; i++) {
            HttpResponse<String> quick = get(client, port, "/delay?millis=" + QUICK_DELAY_MILLIS);
            assertEquals(200, quick.statusCode());
            assertEquals("slept " + QUICK_DELAY_MILLIS, quick.body());
        }
        for (int i = 0; i < LATE_DELAYS; i++) {
            HttpResponse<String> late = get(client, port, "/delay?millis=" + LATE_DELAY_MILLIS);
            assertEquals(504, late.statusCode());
        }
        for (int i = 0; i < IDLE_CONNECTIONS; i++) {
            assertClosedWhenIdle(port);
        }
        return Map.of("requests", (long) CLIENTS * ECHOES_PER_CLIENT + QUICK_DELAYS + LATE_DELAYS,
                "timedOut", (long) LATE_DELAYS);
    }

    @Override
    void assertOtherCounts(Map<String, Long> counts, String describe) {
        // The client's own keep-alive connections may have idled out too.
        assertTrue(counts.get("idleClosed") >= IDLE_CONNECTIONS, counts + "\n" + describe);
    }

    private static HttpResponse<String> get(HttpClient client, int port, String pathAndQuery)
            throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A connection that sends nothing is closed by the service: the read sees the end of the stream. */
    private static void assertClosedWhenIdle(int port) throws IOException {
        try (Socket idle = new Socket(InetAddress.getLoopbackAddress(), port)) {
            idle.setSoTimeout(IDLE_CLOSE_PATIENCE_MILLIS);
            InputStream in = idle.getInputStream();
            assertEquals(-1, in.read(), "the service closes an idle connection");
        }
    }
}
