package io.clockagent.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.demo.load.LoadGenerator;
import io.clockagent.demo.load.LoadResult;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The service and the load generator together, in this JVM, without the agent. */
class QuoteServiceTest {

    private static final int WARMUP = 100;
    private static final int MEASURED = 400;

    @Test
    void twoFreshServicesGiveTheSameBusinessChecksumForTheSameSeed() throws Exception {
        LoadResult first = runOnFreshService(42);
        LoadResult second = runOnFreshService(42);

        assertNull(first.failure());
        assertTrue(first.complete());
        assertTrue(second.complete());
        assertEquals(WARMUP + MEASURED, first.responsesWithStatusClass(2), "every response is a 200");
        assertEquals(first.checksum(), second.checksum());
    }

    @Test
    void anotherSeedGivesAnotherChecksum() throws Exception {
        assertTrue(runOnFreshService(1).checksum() != runOnFreshService(2).checksum());
    }

    @Test
    void responsesCarryTheSessionsRequestNumberAndTheTotal() throws Exception {
        String first = runOnFreshService(42).firstResponse();

        assertTrue(first.matches("200 quote session=s0-\\d+ seq=1 items=\\d+ total=\\d+\\.\\d\\d"), first);
    }

    @Test
    void clockReadsPerRequestFollowTheHandlersCount() throws Exception {
        try (QuoteService service = QuoteService.start()) {
            LoadGenerator load = new LoadGenerator(service.address(), 2, 7, 4, 4);
            LoadResult result = load.run(0, MEASURED, TimeUnit.SECONDS.toNanos(60), () -> { });
            awaitHandled(service, result.requestsDone());

            ServiceStats stats = service.stats();
            long misses = service.cacheMisses();
            long reads = stats.clockReads();
            // 4 per request, 2 per item, 1 per miss: items lie between 5 and 40 per request.
            assertTrue(reads >= MEASURED * (4 + 2 * 5L) + misses, "reads " + reads);
            assertTrue(reads <= MEASURED * (4 + 2 * 40L) + misses, "reads " + reads);
            assertEquals(0, (reads - misses) % 2, "4 + 2n per request is even");
        }
    }

    private static LoadResult runOnFreshService(long seed) throws Exception {
        try (QuoteService service = QuoteService.start()) {
            LoadGenerator load = new LoadGenerator(service.address(), 3, seed, 8, 4);
            LoadResult result = load.run(WARMUP, MEASURED, TimeUnit.SECONDS.toNanos(60), () -> { });
            awaitHandled(service, result.requestsDone());
            return result;
        }
    }

    private static void awaitHandled(QuoteService service, long requests) throws InterruptedException {
        for (int i = 0; i < 5_000 && service.stats().requests() < requests; i++) {
            Thread.sleep(1);
        }
    }
}
