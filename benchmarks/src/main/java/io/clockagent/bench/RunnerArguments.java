package io.clockagent.bench;

/** The runners' command-line arguments: each option takes the argument after it. */
final class RunnerArguments {

    private RunnerArguments() {
    }

    /** The value given to {@code option}, which was the last argument when {@code value} is null. */
    static String required(String option, String value) {
        if (value == null) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return value;
    }
}
