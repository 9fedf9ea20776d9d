package io.clockagent.demo;

import java.nio.file.Path;

/** The demo's command-line settings, parsed once; immutable. */
final class DemoOptions {

    static final String USAGE = "options: --requests N (measured, default 60000), --warmup N (default 20000),"
            + " --connections N (default 8), --clients N (default 32), --sessions N (per connection, default 16),"
            + " --seed N (default 42), --burst N (virtual-thread tasks, 0 for none, default 100000),"
            + " --max-seconds N (default 60), --access-log PATH (default: a new temporary file)";

    private final int requests;
    private final int warmup;
    private final int connections;
    private final int clients;
    private final int sessions;
    private final long seed;
    private final int burst;
    private final int maxSeconds;
    private final Path accessLog;

    private DemoOptions(int requests, int warmup, int connections, int clients, int sessions, long seed, int burst,
            int maxSeconds, Path accessLog) {
        this.requests = requests;
        this.warmup = warmup;
        this.connections = connections;
        this.clients = clients;
        this.sessions = sessions;
        this.seed = seed;
        this.burst = burst;
        this.maxSeconds = maxSeconds;
        this.accessLog = accessLog;
    }

    /**
     * @throws IllegalArgumentException naming the offending argument and the valid forms
     */
    static DemoOptions parse(String... args) {
        int requests = 60_000;
        int warmup = 20_000;
        int connections = 8;
        int clients = 32;
        int sessions = 16;
        long seed = 42;
        int burst = 100_000;
        int maxSeconds = 60;
        Path accessLog = null;
        for (int i = 0; i < args.length; i++) {
            String key = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("'" + key + "' needs a value; " + USAGE);
            }
            String value = args[++i];
            switch (key) {
                case "--requests":
                    requests = count(key, value, 1, 10_000_000);
                    break;
                case "--warmup":
                    warmup = count(key, value, 0, 10_000_000);
                    break;
                case "--connections":
                    connections = count(key, value, 1, 1_000);
                    break;
                case "--clients":
                    clients = count(key, value, 1, QuoteService.MAX_CLIENTS);
                    break;
                case "--sessions":
                    sessions = count(key, value, 1, 1_000);
                    break;
                case "--seed":
                    try {
                        seed = Long.parseLong(value);
                    } catch (NumberFormatException notANumber) {
                        throw new IllegalArgumentException("bad value in '" + key + " " + value
                                + "'; expected a whole number");
                    }
                    break;
                case "--burst":
                    burst = count(key, value, 0, 1_000_000);
                    break;
                case "--max-seconds":
                    maxSeconds = count(key, value, 1, 3_600);
                    break;
                case "--access-log":
                    accessLog = Path.of(value);
                    break;
                default:
                    throw new IllegalArgumentException("unknown option '" + key + "'; " + USAGE);
            }
        }
        if ((long) connections * sessions > QuoteService.MAX_SESSIONS) {
            throw new IllegalArgumentException("--connections times --sessions must be at most "
                    + QuoteService.MAX_SESSIONS);
        }
        return new DemoOptions(requests, warmup, connections, clients, sessions, seed, burst, maxSeconds, accessLog);
    }

    private static int count(String key, String value, int min, int max) {
        try {
            int count = Integer.parseInt(value.replace("_", ""));
            if (count >= min && count <= max) {
                return count;
            }
        } catch (NumberFormatException notANumber) {
            // Reported below with the valid range.
        }
        throw new IllegalArgumentException("bad value in '" + key + " " + value + "'; expected a whole number from "
                + min + " to " + max);
    }

    int requests() {
        return requests;
    }

    int warmup() {
        return warmup;
    }

    int connections() {
        return connections;
    }

    int clients() {
        return clients;
    }

    int sessions() {
        return sessions;
    }

    long seed() {
        return seed;
    }

    int burst() {
        return burst;
    }

    int maxSeconds() {
        return maxSeconds;
    }

    /** The access-log file asked for, or null for a new temporary file. */
    Path accessLog() {
        return accessLog;
    }
}
