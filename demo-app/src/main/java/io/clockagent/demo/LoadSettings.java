package io.clockagent.demo;

import java.util.List;

/**
 * How much load one demo run generates and how long it may take: the settings the demo takes and the comparison
 * runner hands on to every run it forks, with their defaults and bounds defined once. Filled in option by option by
 * the parse that owns it, and only read after that.
 */
public final class LoadSettings {

    public static final String USAGE = "--requests N (measured per run, default 60000), --warmup N (default 20000),"
            + " --connections N (default 8), --burst N (virtual-thread tasks per run on JDK 21+, 0 for none,"
            + " default 100000), --max-seconds N (per run, default 60)";

    private int requests = 60_000;
    private int warmup = 20_000;
    private int connections = 8;
    private int burst = 100_000;
    private int maxSeconds = 60;

    /**
     * @return whether the option is one of these settings, now taken; false leaves it to the caller
     * @throws IllegalArgumentException for one of these settings with a bad value
     */
    public boolean take(OptionArgument option) {
        switch (option.key()) {
            case "--requests":
                requests = option.count(1, 10_000_000);
                return true;
            case "--warmup":
                warmup = option.count(0, 10_000_000);
                return true;
            case "--connections":
                connections = option.count(1, 1_000);
                return true;
            case "--burst":
                burst = option.count(0, 1_000_000);
                return true;
            case "--max-seconds":
                maxSeconds = option.count(1, 3_600);
                return true;
            default:
                return false;
        }
    }

    /** The same settings as the demo's command-line arguments, for a run in another JVM. */
    public List<String> asArguments() {
        return List.of("--requests", Integer.toString(requests), "--warmup", Integer.toString(warmup),
                "--connections", Integer.toString(connections), "--burst", Integer.toString(burst),
                "--max-seconds", Integer.toString(maxSeconds));
    }

    public int requests() {
        return requests;
    }

    public int warmup() {
        return warmup;
    }

    public int connections() {
        return connections;
    }

    public int burst() {
        return burst;
    }

    public int maxSeconds() {
        return maxSeconds;
    }
}
