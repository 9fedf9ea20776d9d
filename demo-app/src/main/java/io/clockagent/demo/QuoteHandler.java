package io.clockagent.demo;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Serves {@code GET /quote?items=SKUxQTY,...}: rate limit, session stamp, pricing under a deadline, access log.
 * Stateless apart from the shared components it is given; runs on any number of request threads at once.
 *
 * <p>Clock reads per request, which {@link ServiceStats} adds up once per request rather than counting each read:
 * <pre>
 *   request start (also the deadline's base)   1
 *   rate limiter                               1
 *   session stamp                              1   (not for 429 or 400)
 *   pricing, per item: deadline + cache get    2   (see {@link QuotePricer})
 *   pricing, per cache miss: cache put         1
 *   access log (request duration)              1
 * </pre>
 * so a quote of n items with m cache misses costs {@code 4 + 2n + m} reads.
 */
final class QuoteHandler implements HttpHandler {

    static final String CLIENT_HEADER = "X-Client";
    static final String SESSION_COOKIE = "session=";

    private final RateLimiter rateLimiter;
    private final SessionStore sessions;
    private final QuotePricer pricer;
    private final long budgetMillis;
    private final ServiceStats stats;

    QuoteHandler(RateLimiter rateLimiter, SessionStore sessions, QuotePricer pricer, long budgetMillis,
            ServiceStats stats) {
        this.rateLimiter = rateLimiter;
        this.sessions = sessions;
        this.pricer = pricer;
        this.budgetMillis = budgetMillis;
        this.stats = stats;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        long startMillis = System.currentTimeMillis();
        long clockReads = 1;
        String client = headerOr(exchange, CLIENT_HEADER, "anonymous");
        String session = sessionOf(exchange);
        int items = 0;
        int status;
        String body;
        clockReads++;
        if (!rateLimiter.tryAcquire(client)) {
            stats.throttled();
            status = 429;
            body = "too many requests from " + client + "\n";
        } else if (!"GET".equals(exchange.getRequestMethod())) {
            stats.badRequest();
            status = 405;
            body = "only GET\n";
        } else {
            try {
                Basket basket = Basket.parseQuery(exchange.getRequestURI().getRawQuery());
                items = basket.size();
                long sequence = sessions.touch(session);
                clockReads++;
                try {
                    Quote quote = pricer.price(basket, Deadline.after(startMillis, budgetMillis));
                    clockReads += quote.clockReads();
                    status = 200;
                    body = "quote session=" + session + " seq=" + sequence + " items=" + quote.items() + " total="
                            + formatCents(quote.totalCents()) + "\n";
                } catch (PricingTimedOutException late) {
                    clockReads += late.clockReads();
                    stats.deadlineMissed();
                    status = 503;
                    body = late.getMessage() + "\n";
                }
            } catch (IllegalArgumentException bad) {
                stats.badRequest();
                status = 400;
                body = bad.getMessage() + "\n";
            }
        }
        byte[] bytes = body.getBytes(StandardCharsets.US_ASCII);
        try {
            exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=us-ascii");
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        } finally {
            exchange.close();
            AccessLog.record(startMillis, client, session, exchange.getRequestMethod(),
                    exchange.getRequestURI().getPath(), items, status, bytes.length);
            clockReads++;
            stats.requestDone(clockReads);
        }
    }

    private static String headerOr(HttpExchange exchange, String name, String fallback) {
        String value = exchange.getRequestHeaders().getFirst(name);
        return value == null || value.isEmpty() ? fallback : value;
    }

    private static String sessionOf(HttpExchange exchange) {
        String cookie = exchange.getRequestHeaders().getFirst("Cookie");
        if (cookie != null) {
            for (String part : cookie.split(";")) {
                String trimmed = part.trim();
                if (trimmed.startsWith(SESSION_COOKIE) && trimmed.length() > SESSION_COOKIE.length()) {
                    return trimmed.substring(SESSION_COOKIE.length());
                }
            }
        }
        return "-";
    }

    static String formatCents(long cents) {
        long whole = cents / 100;
        long fraction = Math.abs(cents % 100);
        return whole + (fraction < 10 ? ".0" : ".") + fraction;
    }
}
