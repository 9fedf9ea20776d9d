package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdk;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.LiveJvm;
import io.clockagent.it.support.OnEachJdk;
import io.clockagent.it.support.OperableService;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;

/**
 * Prometheus' jmx_exporter, loaded as a second agent with the rule the README gives, serves the MBean's numbers as
 * {@code clock_agent_*} gauges. Everything stays on the loopback interface, and the scraping stops by itself.
 */
class JmxExporterTest {

    private static final long PATIENCE_NANOS = TimeUnit.SECONDS.toNanos(20);
    private static final long RETRY_MILLIS = 200;

    /** The exporter's port in the test's service. */
    private int port;

    @OnEachJdk
    void jmxExporterWithTheReadmesRuleServesTheAgentsCountersAsGauges(int featureVersion, @TempDir Path runDirectory)
            throws Exception {
        // With a report the agent counts call sites, and the MBean has the counts to export; cache=always keeps the
        // ticker ticking at the service's few reads a second, which cache=auto leaves direct.
        try (LiveJvm service = startWithExporter(featureVersion, runDirectory, OperableService.INCLUDE_SITES
                + ",report=summary,cache=always")) {
            Map<String, String> gauges = scrapeUntil(service, "clock_agent_ticks present",
                    samples -> samples.containsKey("clock_agent_ticks"));

            assertTrue(Double.parseDouble(gauges.get("clock_agent_ticks")) > 0, gauges.toString());
            assertEquals(OperableService.CALL_SITES, Double.parseDouble(gauges.get("clock_agent_callsites")),
                    gauges.toString());
            assertEquals(OperableService.METHOD_REFERENCES,
                    Double.parseDouble(gauges.get("clock_agent_methodreferences")), gauges.toString());
            assertEquals(1_000_000.0, Double.parseDouble(gauges.get("clock_agent_ticknanos")), gauges.toString());
            assertEquals(0, service.finish().exitStatus(), service.describe());
        }
    }

    /**
     * With cache=auto the service's few reads a second go direct: the saved CPU is the ticker's cost below zero, a
     * negative figure the rule must serve as well, with the two totals it is the difference of.
     */
    @OnEachJdk
    void theSavedCpuGaugesAreServedNegativeWhereTheTickerCostsMoreThanItSaves(int featureVersion,
            @TempDir Path runDirectory) throws Exception {
        try (LiveJvm service = startWithExporter(featureVersion, runDirectory, OperableService.INCLUDE_SITES)) {
            // The ticker starts at the first read once JMX is up, and accounts its CPU at its first look, 250 ms on.
            Map<String, String> gauges = scrapeUntil(service, "clock_agent_tickercpumillis above zero",
                    samples -> Double.parseDouble(samples.getOrDefault("clock_agent_tickercpumillis", "0")) > 0);

            double saved = Double.parseDouble(gauges.get("clock_agent_savedcpumillis"));
            double ticker = Double.parseDouble(gauges.get("clock_agent_tickercpumillis"));
            assertEquals(0.0, Double.parseDouble(gauges.get("clock_agent_readcpusavedmillis")), gauges.toString());
            assertEquals(-ticker, saved, 0.01 * ticker, gauges.toString());
            assertTrue(Double.parseDouble(gauges.get("clock_agent_savedcpumillispersecond")) <= 0, gauges.toString());
            assertEquals(0.0, Double.parseDouble(gauges.get("clock_agent_libraryclockthreadsneverstarted")),
                    gauges.toString());
            assertEquals(0, service.finish().exitStatus(), service.describe());
        }
    }

    /** The service with the agent and jmx_exporter, configured with the README's rule, reading the clock. */
    private LiveJvm startWithExporter(int featureVersion, Path runDirectory, String agentOptions) throws IOException {
        Path config = Files.writeString(runDirectory.resolve("jmx-exporter.yaml"), readmeYaml(),
                StandardCharsets.UTF_8);
        port = freeLoopbackPort();
        Jdk jdk = Jdks.require(featureVersion);
        jdk.requireModule("jdk.httpserver", "jmx_exporter's HTTP endpoint");
        LiveJvm service = new ForkedJvm(jdk, runDirectory)
                .javaagent(BuildOutputs.agentJar(), agentOptions)
                .javaagent(BuildOutputs.jmxExporterJar(), "127.0.0.1:" + port + ":" + config)
                .classPath(BuildOutputs.testClasses())
                .startMain(OperableService.MAIN_CLASS, "sites", "keep-reading");
        service.awaitLine("reading");
        return service;
    }

    /**
     * Scrapes {@code /metrics} until its samples are as {@code wanted}: the exporter's server needs a moment to start,
     * and the MBean is registered only once the first scrape has started JMX.
     *
     * @return the {@code clock_agent_*} samples of the last scrape, by name
     */
    private Map<String, String> scrapeUntil(LiveJvm service, String what, Predicate<Map<String, String>> wanted)
            throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest scrape = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                .timeout(Duration.ofSeconds(10)).build();
        long deadlineNanos = System.nanoTime() + PATIENCE_NANOS;
        String lastBody = "(no answer yet)";
        while (System.nanoTime() - deadlineNanos < 0) {
            try {
                HttpResponse<String> response = client.send(scrape, HttpResponse.BodyHandlers.ofString());
                lastBody = response.statusCode() + "\n" + response.body();
                Map<String, String> samples = clockAgentSamples(response.body());
                if (response.statusCode() == 200 && wanted.test(samples)) {
                    return samples;
                }
            } catch (ConnectException notListeningYet) {
                lastBody = notListeningYet.toString();
            }
            Thread.sleep(RETRY_MILLIS);
        }
        throw new AssertionError("no " + what + " on /metrics within " + TimeUnit.NANOSECONDS.toSeconds(
                PATIENCE_NANOS) + " s; last answer:\n" + lastBody + "\n" + service.describe());
    }

    /** The {@code clock_agent_*} samples of a Prometheus text exposition, by name (these gauges have no labels). */
    private static Map<String, String> clockAgentSamples(String exposition) {
        Map<String, String> samples = new TreeMap<>();
        for (String line : exposition.split("\n")) {
            String[] words = line.split(" ");
            if (words.length == 2 && words[0].startsWith("clock_agent_")) {
                samples.put(words[0], words[1]);
            }
        }
        return samples;
    }

    /** The README's jmx_exporter configuration, exactly as a user would copy it. */
    private static String readmeYaml() throws IOException {
        List<String> readme = Files.readAllLines(BuildOutputs.readme(), StandardCharsets.UTF_8);
        int start = readme.indexOf("```yaml");
        assertTrue(start >= 0, "the README has no ```yaml block");
        int end = readme.subList(start + 1, readme.size()).indexOf("```") + start + 1;
        assertTrue(end > start + 1, "the README's yaml block is not closed");
        return String.join("\n", readme.subList(start + 1, end)) + "\n";
    }

    /**
     * A port that was free on the loopback interface a moment ago. Another process could take it before the
     * exporter binds; on a test machine that is rare enough, and the failure would say what happened.
     */
    private static int freeLoopbackPort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }
}
