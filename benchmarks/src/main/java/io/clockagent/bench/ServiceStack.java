package io.clockagent.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The stack services of {@code stacks/}, as the comparison drives them: what each is asked, request after request,
 * and over which protocol. Requests cycle over {@value #KEYS} keys, which the pool service is given first.
 */
enum ServiceStack {

    SPRING_BOOT("spring-boot-service", 17, true, "/greet?name=n%d"),
    NETTY("netty-service", 11, true, "/echo?text=t%d"),
    KOTLIN("kotlin-service", 11, false, "stamp"),
    POOL("pool-service", 11, false, "get key-%d");

    static final int KEYS = 100;

    private final String module;
    private final int oldestJdk;
    private final boolean http;
    private final String requestFormat;

    ServiceStack(String module, int oldestJdk, boolean http, String requestFormat) {
        this.module = module;
        this.oldestJdk = oldestJdk;
        this.http = http;
        this.requestFormat = requestFormat;
    }

    String module() {
        return module;
    }

    int oldestJdk() {
        return oldestJdk;
    }

    /** The {@code i}-th request. */
    String request(int i) {
        return String.format(requestFormat, i % KEYS);
    }

    /** What the service needs besides its jar, such as a directory for its logs. */
    List<String> jvmOptions(Path runDirectory) {
        return this == POOL ? List.of("-Dstack.logDirectory=" + runDirectory.resolve("logs")) : List.of();
    }

    /** The requests that prepare the service before it is timed. */
    List<String> setup() {
        if (this != POOL) {
            return List.of();
        }
        List<String> puts = new ArrayList<>();
        for (int key = 0; key < KEYS; key++) {
            puts.add("put key-" + key + " value-" + key);
        }
        return puts;
    }

    StackClient connect(int port) throws IOException {
        return http ? StackClient.http(port) : StackClient.lines(port);
    }
}
