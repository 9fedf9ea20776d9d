package io.clockagent.demo.load;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * The deterministic stream of quote requests one load connection sends: the same seed and connection index always
 * give the same requests in the same order. Confined to its connection's thread.
 *
 * <p>Each connection owns its sessions, so a session's requests arrive one after another and its request numbers
 * are the same in every run; clients are shared between connections, as real clients share a rate limit.
 */
public final class RequestMix {

    static final int MIN_ITEMS = 5;
    static final int MAX_ITEMS = 40;
    /** SKUs are drawn below a random bound below this, so low SKUs are popular and the cache sees a skew. */
    static final int SKU_SPACE = 4_000;
    static final int MAX_QUANTITY = 9;

    private final SplittableRandom random;
    private final int connection;
    private final int clients;
    private final int sessionsPerConnection;
    private final StringBuilder text = new StringBuilder(512);

    public RequestMix(long seed, int connection, int clients, int sessionsPerConnection) {
        // Mixing the index in keeps the connections' streams apart even for neighbouring seeds.
        this.random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + connection);
        this.connection = connection;
        this.clients = clients;
        this.sessionsPerConnection = sessionsPerConnection;
    }

    /** The next request, as the bytes of an HTTP/1.1 keep-alive GET. */
    public byte[] next() {
        text.setLength(0);
        text.append("GET /quote?items=");
        int items = MIN_ITEMS + random.nextInt(MAX_ITEMS - MIN_ITEMS + 1);
        for (int i = 0; i < items; i++) {
            if (i > 0) {
                text.append(',');
            }
            int sku = random.nextInt(1 + random.nextInt(SKU_SPACE));
            text.append(sku).append('x').append(1 + random.nextInt(MAX_QUANTITY));
        }
        text.append(" HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Client: c").append(random.nextInt(clients))
                .append("\r\nCookie: session=s").append(connection).append('-')
                .append(random.nextInt(sessionsPerConnection)).append("\r\n\r\n");
        return text.toString().getBytes(StandardCharsets.US_ASCII);
    }
}
