package io.clockagent.it.stacks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Runs the same client work on several threads at once and rethrows the first failure, assertion errors included. */
final class ConcurrentClients {

    /** One client's work; {@code client} numbers the clients from 0. */
    interface Work {
        void run(int client) throws Exception;
    }

    private ConcurrentClients() {
    }

    static void run(int clients, Work work) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(clients);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                int client = c;
                running.add(threads.submit(() -> {
                    work.run(client);
                    return null;
                }));
            }
            for (Future<?> done : running) {
                done.get();
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
