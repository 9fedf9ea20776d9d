package io.clockagent.demo;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one line per request through slf4j, which {@link Demo} points at a file; safe for any number of threads.
 * Reads the clock once per {@link #record}, to time the request.
 */
final class AccessLog {

    private static final Logger LOG = LoggerFactory.getLogger("access");

    private AccessLog() {
    }

    static void record(long startMillis, String client, String session, String method, String path, int items,
            int status, int bytes) {
        long durationMillis = System.currentTimeMillis() - startMillis;
        LOG.info("{} {} {} \"{} {} items={}\" {} {} {}ms", startMillis, client, session, method, path, items, status,
                bytes, durationMillis);
    }
}
