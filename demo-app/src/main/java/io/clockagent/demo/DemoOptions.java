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
        for (int i = 0; i < args.length; i += 2) {
            OptionArgument option = OptionArgument.at(args, i, USAGE);
            switch (option.key()) {
                case "--requests":
                    requests = option.count(1, 10_000_000);
                    break;
                case "--warmup":
                    warmup = option.count(0, 10_000_000);
                    break;
                case "--connections":
                    connections = option.count(1, 1_000);
                    break;
                case "--clients":
                    clients = option.count(1, QuoteService.MAX_CLIENTS);
                    break;
                case "--sessions":
                    sessions = option.count(1, 1_000);
                    break;
                case "--seed":
                    try {
                        seed = Long.parseLong(option.value());
                    } catch (NumberFormatException notANumber) {
                        throw option.badValue("expected a whole number");
                    }
                    break;
                case "--burst":
                    burst = option.count(0, 1_000_000);
                    break;
                case "--max-seconds":
                    maxSeconds = option.count(1, 3_600);
                    break;
                case "--access-log":
                    accessLog = Path.of(option.value());
                    break;
                default:
                    throw option.unknown(USAGE);
            }
        }
        if ((long) connections * sessions > QuoteService.MAX_SESSIONS) {
            throw new IllegalArgumentException("--connections times --sessions must be at most "
                    + QuoteService.MAX_SESSIONS);
        }
        return new DemoOptions(requests, warmup, connections, clients, sessions, seed, burst, maxSeconds, accessLog);
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
