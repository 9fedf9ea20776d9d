package io.clockagent.bench.log4j;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * A service that logs one event per request through Log4j2 as most services configure it
 * ({@value #CONFIGURATION}, named by {@code -Dlog4j2.configurationFile}): the default clock (no {@code log4j2.clock}),
 * synchronous loggers, a {@code PatternLayout} with a millisecond timestamp, and a file appender into the directory
 * named by the system property {@code stack.logDirectory}. Requests come a line each over TCP and
 * are answered {@code ok} once logged. Listens on 127.0.0.1, on a free port it prints as {@code listening PORT}; the
 * end of stdin stops it. The forked side of {@code ClockReadCoverage}, which puts Log4j2's own jars ahead of the
 * benchmark jar on its class path, so that their Java 9+ classes serve, as in any service.
 */
public final class Log4jService {

    /** A resource of the benchmark jar. */
    public static final String CONFIGURATION = "io/clockagent/bench/log4j/log4j2-service.xml";
    private static final int SESSION_THREADS = 4;

    private Log4jService() {
    }

    public static void main(String[] args) throws Exception {
        if (System.getProperty("stack.logDirectory") == null) {
            throw new IllegalArgumentException("set -Dstack.logDirectory=DIRECTORY");
        }
        Logger log = LogManager.getLogger(Log4jService.class);
        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        ExecutorService sessions = Executors.newFixedThreadPool(SESSION_THREADS);
        Thread acceptor = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    Socket client = server.accept();
                    sessions.execute(() -> serve(client, log));
                } catch (IOException closed) {
                    return;
                }
            }
        }, "acceptor");
        acceptor.setDaemon(true);
        acceptor.start();
        System.out.println("listening " + server.getLocalPort());
        BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        while (stdin.readLine() != null) {
            // Only the end of stdin means anything: it stops the service.
        }
        LogManager.shutdown();
        System.exit(0);
    }

    private static void serve(Socket client, Logger log) {
        try (client;
                BufferedReader in = new BufferedReader(new InputStreamReader(client.getInputStream(),
                        StandardCharsets.UTF_8));
                PrintWriter out = new PrintWriter(client.getOutputStream(), true, StandardCharsets.UTF_8)) {
            for (String request = in.readLine(); request != null; request = in.readLine()) {
                log.info("served {}", request);
                out.println("ok");
            }
        } catch (IOException clientGone) {
            // The client closed its end; nothing is owed to it.
        }
    }
}
