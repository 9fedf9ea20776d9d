package io.clockagent.demo.load;

import java.util.Arrays;
import java.util.List;

/** What one load run observed from the client side; immutable. */
public final class LoadResult {

    private final long requestsPlanned;
    private final long requestsDone;
    private final long[] sortedLatencyNanos;
    private final long measuredNanos;
    private final long checksum;
    private final long[] statusClasses;
    private final String firstResponse;
    private final String failure;

    private LoadResult(long requestsPlanned, long requestsDone, long[] sortedLatencyNanos, long measuredNanos,
            long checksum, long[] statusClasses, String firstResponse, String failure) {
        this.requestsPlanned = requestsPlanned;
        this.requestsDone = requestsDone;
        this.sortedLatencyNanos = sortedLatencyNanos;
        this.measuredNanos = measuredNanos;
        this.checksum = checksum;
        this.statusClasses = statusClasses;
        this.firstResponse = firstResponse;
        this.failure = failure;
    }

    static LoadResult combine(List<LoadGenerator.Worker> workers, long measurementStartNanos, long requestsPlanned) {
        int measured = 0;
        for (LoadGenerator.Worker worker : workers) {
            measured += worker.measuredDone;
        }
        long[] latencies = new long[measured];
        long[] statusClasses = new long[6];
        long requestsDone = 0;
        long checksum = 0;
        long lastFinishNanos = measurementStartNanos;
        String failure = null;
        int at = 0;
        for (LoadGenerator.Worker worker : workers) {
            System.arraycopy(worker.latencyNanos, 0, latencies, at, worker.measuredDone);
            at += worker.measuredDone;
            for (int i = 0; i < statusClasses.length; i++) {
                statusClasses[i] += worker.statusClasses[i];
            }
            requestsDone += worker.requestsDone;
            // Order-independent, so the sum is the same however the connections interleave.
            checksum += worker.checksum;
            lastFinishNanos = Math.max(lastFinishNanos, worker.finishNanos);
            if (failure == null && worker.failure != null) {
                failure = worker.failure;
            }
        }
        Arrays.sort(latencies);
        long measuredNanos = measurementStartNanos == 0 ? 0 : lastFinishNanos - measurementStartNanos;
        String firstResponse = workers.isEmpty() ? null : workers.get(0).firstResponse;
        return new LoadResult(requestsPlanned, requestsDone, latencies, measuredNanos, checksum, statusClasses,
                firstResponse, failure);
    }

    /** Whether every planned request got a response. */
    public boolean complete() {
        return failure == null && requestsDone == requestsPlanned;
    }

    public long requestsDone() {
        return requestsDone;
    }

    public long measuredRequests() {
        return sortedLatencyNanos.length;
    }

    public long measuredNanos() {
        return measuredNanos;
    }

    public double requestsPerSecond() {
        return measuredNanos <= 0 ? 0 : sortedLatencyNanos.length * 1e9 / measuredNanos;
    }

    /** The latency at the given quantile (0..1) of the measured requests, nearest-rank. */
    public long latencyNanosAt(double quantile) {
        if (sortedLatencyNanos.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(quantile * sortedLatencyNanos.length);
        return sortedLatencyNanos[Math.min(sortedLatencyNanos.length - 1, Math.max(0, rank - 1))];
    }

    /** A sum over every response (warm-up included) of a hash of its status and body. */
    public long checksum() {
        return checksum;
    }

    /** Responses by status class: index 2 counts 2xx, 4 counts 4xx, 5 counts 5xx. */
    public long responsesWithStatusClass(int hundreds) {
        return statusClasses[hundreds];
    }

    /** The first response of connection 0, for display. */
    public String firstResponse() {
        return firstResponse;
    }

    /** The first failure, or null. */
    public String failure() {
        return failure;
    }
}
