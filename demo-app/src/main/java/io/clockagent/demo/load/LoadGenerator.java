package io.clockagent.demo.load;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A closed-loop load generator: a fixed number of keep-alive connections, each on its own platform thread, send a
 * fixed number of requests from their {@link RequestMix}, first a warm-up share and then, after all connections
 * finish warming up, a measured share. Bounded in count and in time. One run per instance, from one thread.
 *
 * <p>Latencies are taken with {@code System.nanoTime()}, never with the wall clock the agent rewrites.
 */
public final class LoadGenerator {

    private final InetSocketAddress server;
    private final int connections;
    private final long seed;
    private final int clients;
    private final int sessionsPerConnection;

    public LoadGenerator(InetSocketAddress server, int connections, long seed, int clients,
            int sessionsPerConnection) {
        if (connections < 1 || clients < 1 || sessionsPerConnection < 1) {
            throw new IllegalArgumentException("connections, clients and sessionsPerConnection must be at least 1");
        }
        this.server = server;
        this.connections = connections;
        this.seed = seed;
        this.clients = clients;
        this.sessionsPerConnection = sessionsPerConnection;
    }

    /**
     * Sends {@code warmupRequests} and then {@code measuredRequests}, spread evenly over the connections, and stops
     * early (reporting the run incomplete) after {@code maxNanos} or at the first failed request.
     *
     * @param atMeasurementStart runs once, after the warm-up and before the first measured request
     */
    public LoadResult run(int warmupRequests, int measuredRequests, long maxNanos, Runnable atMeasurementStart)
            throws InterruptedException {
        long startNanos = System.nanoTime();
        long giveUpAtNanos = startNanos + maxNanos;
        long[] measurementStartNanos = new long[1];
        CyclicBarrier warmedUp = new CyclicBarrier(connections, () -> {
            atMeasurementStart.run();
            measurementStartNanos[0] = System.nanoTime();
        });
        List<Worker> workers = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < connections; c++) {
            Worker worker = new Worker(c, share(warmupRequests, c), share(measuredRequests, c), giveUpAtNanos,
                    warmedUp);
            workers.add(worker);
            Thread thread = new Thread(worker, "load-" + c);
            thread.setDaemon(true);
            threads.add(thread);
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(giveUpAtNanos - System.nanoTime()) + 5_000));
        }
        return LoadResult.combine(workers, measurementStartNanos[0], warmupRequests + measuredRequests);
    }

    private int share(int total, int connection) {
        return total / connections + (connection < total % connections ? 1 : 0);
    }

    /** One connection's loop; its fields are read by the starting thread only after joining it. */
    final class Worker implements Runnable {
        final int connection;
        final int warmupRequests;
        final int measuredRequests;
        final long giveUpAtNanos;
        final CyclicBarrier warmedUp;
        final long[] latencyNanos;
        final long[] statusClasses = new long[6];
        int measuredDone;
        long requestsDone;
        long checksum;
        long finishNanos;
        String firstResponse;
        String failure;

        Worker(int connection, int warmupRequests, int measuredRequests, long giveUpAtNanos, CyclicBarrier warmedUp) {
            this.connection = connection;
            this.warmupRequests = warmupRequests;
            this.measuredRequests = measuredRequests;
            this.giveUpAtNanos = giveUpAtNanos;
            this.warmedUp = warmedUp;
            this.latencyNanos = new long[measuredRequests];
        }

        @Override
        public void run() {
            RequestMix mix = new RequestMix(seed, connection, clients, sessionsPerConnection);
            try (HttpConnection http = new HttpConnection(server)) {
                for (int i = 0; i < warmupRequests; i++) {
                    if (outOfTime()) {
                        throw new TimeoutException("warm-up not done in time");
                    }
                    send(http, mix.next());
                }
                warmedUp.await(Math.max(1, giveUpAtNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
                for (int i = 0; i < measuredRequests; i++) {
                    if (outOfTime()) {
                        throw new TimeoutException("measured requests not done in time");
                    }
                    byte[] request = mix.next();
                    long sentNanos = System.nanoTime();
                    send(http, request);
                    latencyNanos[i] = System.nanoTime() - sentNanos;
                    measuredDone++;
                }
            } catch (IOException | TimeoutException | BrokenBarrierException | RuntimeException failed) {
                failure = "connection " + connection + ": " + failed;
                warmedUp.reset();
            } catch (InterruptedException interrupted) {
                failure = "connection " + connection + ": interrupted";
                Thread.currentThread().interrupt();
            } finally {
                finishNanos = System.nanoTime();
            }
        }

        private boolean outOfTime() {
            return System.nanoTime() - giveUpAtNanos > 0;
        }

        private void send(HttpConnection http, byte[] request) throws IOException {
            int status = http.exchange(request);
            if (firstResponse == null) {
                firstResponse = status + " " + http.bodyText().trim();
            }
            statusClasses[Math.min(status / 100, 5)]++;
            checksum += mix(http.bodyHash() + status);
            requestsDone++;
        }

        private long mix(long value) {
            long z = value;
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            return z ^ (z >>> 31);
        }
    }
}
