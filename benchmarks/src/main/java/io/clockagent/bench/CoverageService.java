package io.clockagent.bench;

import io.clockagent.bench.log4j.Log4jService;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A service the coverage benchmark measures: one of the stacks of {@code stacks/}, or the Log4j2 service of this
 * module, which logs one event per request. Immutable.
 */
final class CoverageService {

    static final String LOG4J = "log4j2-service";

    private final String name;
    private final ServiceStack stack;

    private CoverageService(String name, ServiceStack stack) {
        this.name = name;
        this.stack = stack;
    }

    /** The four stacks, then the Log4j2 service. */
    static List<CoverageService> all() {
        List<CoverageService> services = new ArrayList<>();
        for (ServiceStack stack : ServiceStack.values()) {
            services.add(new CoverageService(stack.module(), stack));
        }
        services.add(new CoverageService(LOG4J, null));
        return services;
    }

    String name() {
        return name;
    }

    int oldestJdk() {
        return stack == null ? 11 : stack.oldestJdk();
    }

    /** What follows the JVM options of the agent: the service's own options, then its jar or main class. */
    List<String> launch(BenchmarkFiles files, Path runDirectory) {
        List<String> launch = new ArrayList<>();
        if (stack == null) {
            launch.addAll(List.of("-Dstack.logDirectory=" + runDirectory.resolve("logs"),
                    "-Dlog4j2.configurationFile=" + Log4jService.CONFIGURATION, "-cp",
                    files.log4jServiceClassPath(), Log4jService.class.getName()));
        } else {
            launch.addAll(stack.jvmOptions(runDirectory));
            launch.addAll(List.of("-jar", files.stackJar(stack.module()).toString()));
        }
        return launch;
    }

    List<String> setup() {
        return stack == null ? List.of() : stack.setup();
    }

    /** The {@code i}-th request. */
    String request(int i) {
        return stack == null ? "event " + i : stack.request(i);
    }

    StackClient connect(int port) throws IOException {
        return stack == null ? StackClient.lines(port) : stack.connect(port);
    }
}
