package io.clockagent.demo;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The quote service: an HTTP server on an ephemeral loopback port with its rate limiter, sessions and price cache.
 * Started and stopped by one thread; requests run on the executor {@link RequestExecutors} picks.
 */
final class QuoteService implements AutoCloseable {

    /*
     * Sized so that no time-dependent decision changes a response in the demo's runs. The limiter allows each client
     * 5,000 requests/s after a burst of 2,000, several times what the load generator's 32 clients send on a small
     * machine; a clock that stopped advancing would refill nothing and show up as 429s. Deadlines are seconds while
     * requests take well under a millisecond, and sessions outlive every run. Only the price cache expires during a
     * run, and a hit or a miss yields the same price.
     */
    static final long RATE_LIMIT_BURST = 2_000L;
    static final long RATE_LIMIT_PER_SECOND = 5_000L;
    static final int MAX_CLIENTS = 10_000;
    static final long PRICE_TTL_MILLIS = 250L;
    static final int MAX_CACHED_PRICES = 100_000;
    static final long SESSION_IDLE_TIMEOUT_MILLIS = 30L * 60 * 1000;
    static final int MAX_SESSIONS = 100_000;
    static final long REQUEST_BUDGET_MILLIS = 2_000L;
    static final int POOL_THREADS = 16;

    private final HttpServer server;
    private final ExecutorService executor;
    private final TtlCache<Integer, Long> unitPrices;
    private final ServiceStats stats;

    private QuoteService(HttpServer server, ExecutorService executor, TtlCache<Integer, Long> unitPrices,
            ServiceStats stats) {
        this.server = server;
        this.executor = executor;
        this.unitPrices = unitPrices;
        this.stats = stats;
    }

    static QuoteService start() throws IOException {
        // Read once by the JDK's server when it first starts: without it, Nagle's algorithm and delayed ACKs add
        // tens of milliseconds to small keep-alive responses.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        TtlCache<Integer, Long> unitPrices = new TtlCache<>(PRICE_TTL_MILLIS, MAX_CACHED_PRICES);
        ServiceStats stats = new ServiceStats();
        QuoteHandler handler = new QuoteHandler(
                new RateLimiter(RATE_LIMIT_BURST, RATE_LIMIT_PER_SECOND, MAX_CLIENTS),
                new SessionStore(SESSION_IDLE_TIMEOUT_MILLIS, MAX_SESSIONS),
                new QuotePricer(unitPrices), REQUEST_BUDGET_MILLIS, stats);
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        server.createContext("/quote", handler);
        ExecutorService executor = RequestExecutors.forRequests(POOL_THREADS);
        server.setExecutor(executor);
        server.start();
        return new QuoteService(server, executor, unitPrices, stats);
    }

    InetSocketAddress address() {
        return server.getAddress();
    }

    String executorDescription() {
        return RequestExecutors.describe(POOL_THREADS);
    }

    ServiceStats stats() {
        return stats;
    }

    long cacheHits() {
        return unitPrices.hits();
    }

    long cacheMisses() {
        return unitPrices.misses();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdown();
        try {
            if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException interrupted) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
