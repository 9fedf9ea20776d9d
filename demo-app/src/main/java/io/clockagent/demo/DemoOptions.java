package io.clockagent.demo;

import java.nio.file.Path;

/** The demo's command-line settings, parsed once; immutable. */
final class DemoOptions {

    static final String USAGE = "options: " + LoadSettings.USAGE + ", --clients N (default 32), --sessions N"
            + " (per connection, default 16), --seed N (default 42), --access-log PATH (default: a new temporary file)";

    private final LoadSettings load;
    private final int clients;
    private final int sessions;
    private final long seed;
    private final Path accessLog;

    private DemoOptions(LoadSettings load, int clients, int sessions, long seed, Path accessLog) {
        this.load = load;
        this.clients = clients;
        this.sessions = sessions;
        this.seed = seed;
        this.accessLog = accessLog;
    }

    /**
     * @throws IllegalArgumentException naming the offending argument and the valid forms
     */
    static DemoOptions parse(String... args) {
        LoadSettings load = new LoadSettings();
        int clients = 32;
        int sessions = 16;
        long seed = 42;
        Path accessLog = null;
        for (int i = 0; i < args.length; i += 2) {
            OptionArgument option = OptionArgument.at(args, i, USAGE);
            if (load.take(option)) {
                continue;
            }
            switch (option.key()) {
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
                case "--access-log":
                    accessLog = Path.of(option.value());
                    break;
                default:
                    throw option.unknown(USAGE);
            }
        }
        if ((long) load.connections() * sessions > QuoteService.MAX_SESSIONS) {
            throw new IllegalArgumentException("--connections times --sessions must be at most "
                    + QuoteService.MAX_SESSIONS);
        }
        return new DemoOptions(load, clients, sessions, seed, accessLog);
    }

    int requests() {
        return load.requests();
    }

    int warmup() {
        return load.warmup();
    }

    int connections() {
        return load.connections();
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
        return load.burst();
    }

    int maxSeconds() {
        return load.maxSeconds();
    }

    /** The access-log file asked for, or null for a new temporary file. */
    Path accessLog() {
        return accessLog;
    }
}
